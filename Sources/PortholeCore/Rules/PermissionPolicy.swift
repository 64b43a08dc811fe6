// What a page's permission request gets: denied, unless `[Privacy] permissions=` grants it.

/// A permission request as WebKit raises it, translated to Porthole's names.
public enum PermissionRequest: Sendable, Equatable {
    /// Requests that map onto `[Privacy] permissions=` names. A user-media request may ask for
    /// camera and microphone at once; every one of them must be granted.
    case permissions(Set<Permission>)
    /// Listing cameras and microphones (navigator.mediaDevices.enumerateDevices with labels).
    case deviceInfo
    /// Anything else: screen capture, storage access, media plugin installs, future kinds.
    case other(String)
}

public enum PermissionPolicy {
    /// Whether a page on `host` gets `request`, in every mode (kiosk or not): only what the admin
    /// granted to exactly that host. Device listing goes with a granted camera or microphone.
    /// A page without a host (Porthole's pages, `about:blank`) gets nothing.
    public static func allows(_ request: PermissionRequest, host: String?, privacy: PrivacySettings) -> Bool {
        guard let host, !host.isEmpty else { return false }
        switch request {
        case .permissions(let permissions):
            return !permissions.isEmpty && permissions.allSatisfy { privacy.isGranted($0, to: host) }
        case .deviceInfo:
            return privacy.isGranted(.camera, to: host) || privacy.isGranted(.microphone, to: host)
        case .other:
            return false
        }
    }

    /// The Porthole permission a Permissions API query names (`navigator.permissions.query`,
    /// names from the Permissions Registry), or nil for one Porthole has no say in.
    public static func permission(queryName: String) -> Permission? {
        switch queryName {
        case "geolocation": .geolocation
        case "notifications", "push": .notifications
        case "camera": .camera
        case "microphone": .microphone
        case "clipboard-read": .clipboard
        default: nil
        }
    }

    /// The name used in logs and events: `camera+microphone`, `device-info`, or the other kind.
    public static func name(of request: PermissionRequest) -> String {
        switch request {
        case .permissions(let permissions): permissions.map(\.rawValue).sorted().joined(separator: "+")
        case .deviceInfo: "device-info"
        case .other(let name): name
        }
    }
}
