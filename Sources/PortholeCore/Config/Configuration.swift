// The resolved, typed configuration the browser runs with, and its fail-closed fallback.

public struct Configuration: Sendable, Equatable {
    /// `[Sites]`: the approved sites in order; the first is the home page.
    public var sites: SiteList
    /// `[Policy] allow=`: extra Chrome-format URL filters that are allowed beyond the sites.
    public var allow: [String]
    /// `[Policy] block=`: Chrome-format URL filters that are blocked; `*` blocks everything else.
    public var block: [String]
    /// `[Policy] chrome-policies=`: a folder of Chrome policy files whose URLAllowlist and
    /// URLBlocklist are added to `allow` and `block` when the configuration is loaded.
    public var chromePolicies: String? = nil
    /// `[Policy] subresources=`: whether the web process also refuses images, scripts, fetch/XHR,
    /// WebSockets and other subresources from blocked URLs (`policy`) or only documents (`allow`).
    public var subresources: SubresourcePolicy
    public var browser: BrowserSettings
    public var privacy: PrivacySettings
    public var kiosk: KioskSettings
    /// `[Accessibility]`: More time, speech's longer idle time, the visitor controls.
    public var accessibility = AccessibilitySettings()
    public var network: NetworkSettings
    /// `[Accessibility] speech-key=`, `speech-rate=`: the read-aloud mode.
    public var speech = SpeechSettings()
    /// The files the configuration was read from, base layer first.
    public var sources: [String]
    /// Set by `failClosed`: the files have problems and this is the locked-down fallback.
    public var isFailClosed = false

    public init(sites: SiteList = SiteList([]), allow: [String] = [], block: [String] = ["*"],
                subresources: SubresourcePolicy = .allow,
                browser: BrowserSettings = BrowserSettings(), privacy: PrivacySettings = PrivacySettings(),
                kiosk: KioskSettings = KioskSettings(), network: NetworkSettings = NetworkSettings(),
                sources: [String] = []) {
        self.sites = sites
        self.allow = allow
        self.block = block
        self.subresources = subresources
        self.browser = browser
        self.privacy = privacy
        self.kiosk = kiosk
        self.network = network
        self.sources = sources
    }

    /// Porthole's own start page, which is always reachable, named in the language in use now
    /// (a stored `let` would keep whichever language was in use when it was first read).
    public static var startPage: Site { Site(name: tr("Start page"), address: "porthole://start/") }

    /// What to run with when the configuration has problems: only the start page (which lists
    /// the problems), nothing allowed, everything blocked, no permissions, no TLS exceptions.
    ///
    /// The other settings are kept from `settings`, the best-effort reading of the files (each
    /// valid value applied, each invalid one left at its default), so that a kiosk with a typo
    /// stays a locked-down kiosk showing its problems instead of becoming a desktop browser.
    public static func failClosed(keeping settings: Configuration = Configuration()) -> Configuration {
        var closed = settings
        closed.sites = SiteList([startPage])
        closed.allow = []
        closed.block = ["*"]
        closed.privacy.grants = []
        closed.browser.tlsExceptions = []
        closed.isFailClosed = true
        return closed
    }
}

/// `[Browser]`.
public struct BrowserSettings: Sendable, Equatable {
    /// `javascript`: run page scripts.
    public var javascript: Bool
    /// `https-only`: open http:// sites and typed addresses over https://.
    public var httpsOnly: Bool
    /// `swipe-navigation`: touchpad and touchscreen swipes go back and forward; `auto`: while
    /// such a device is connected.
    public var swipeNavigation: SwipeNavigation
    /// `gpu-painting`: page content painted on the GPU; `auto`: where the machine has one. Read
    /// once, before the first web process starts.
    public var gpuPainting: GPUPainting = .auto
    /// `sandbox`: page web processes in WebKitGTK's bubblewrap sandbox. Read at start.
    public var sandbox: WebProcessSandbox = .auto
    /// `zoom`: the default page zoom, 0.25 to 5.0.
    public var zoom: Double
    /// `user-agent-suffix`: appended to WebKit's user agent, so sites can recognise Porthole.
    public var userAgentSuffix: String
    /// `tls-exceptions`: hosts whose certificate errors are accepted (self-signed kiosk servers).
    public var tlsExceptions: [String]
    /// `pinch-zoom`: two fingers on a touchscreen zoom the page; nil when not set: off in kiosk
    /// mode (so a visitor cannot zoom the layout away), on at a desk.
    public var pinchZoom: Bool?
    /// `unresponsive-timeout`: seconds a page may stay unresponsive before its web process is ended
    /// and the page recovered as from a crash; 0 never; unset: 15 in kiosk mode, never at a desk.
    public var unresponsiveTimeout: Int?
    /// `languages`: BCP 47 tags (`zh-TW`, `en`), most wanted first, for Porthole's own text and
    /// for what sites are asked for; empty follows the system's locale (LANGUAGE, LANG).
    public var languages: [String] = []

    public init(javascript: Bool = true, httpsOnly: Bool = false, swipeNavigation: SwipeNavigation = .auto, zoom: Double = 1.0,
                userAgentSuffix: String = "", tlsExceptions: [String] = [], pinchZoom: Bool? = nil) {
        self.pinchZoom = pinchZoom
        self.javascript = javascript
        self.httpsOnly = httpsOnly
        self.swipeNavigation = swipeNavigation
        self.zoom = zoom
        self.userAgentSuffix = userAgentSuffix
        self.tlsExceptions = tlsExceptions
    }
}

/// `[Privacy]`.
public struct PrivacySettings: Sendable, Equatable {
    /// `ephemeral`: keep cookies, cache and storage in memory only (`--private`).
    public var ephemeral: Bool
    /// `permissions`: the grants; empty means `deny-all`.
    public var grants: [PermissionGrant]

    public init(ephemeral: Bool = false, grants: [PermissionGrant] = []) {
        self.ephemeral = ephemeral
        self.grants = grants
    }

    /// Whether a page on `host` may have `permission`: only when granted to exactly that host
    /// (case-insensitively; a grant to `example.com` does not cover `www.example.com`).
    public func isGranted(_ permission: Permission, to host: String) -> Bool {
        let host = PermissionGrant.normalized(host)
        return grants.contains { $0.permission == permission && PermissionGrant.normalized($0.host) == host }
    }
}

/// A permission a page can ask for, named as in `[Privacy] permissions=`.
public enum Permission: String, Sendable, CaseIterable {
    /// The device's location (WebKitGeolocationPermissionRequest).
    case geolocation
    /// Desktop notifications (WebKitNotificationPermissionRequest).
    case notifications
    /// Video capture (WebKitUserMediaPermissionRequest for video).
    case camera
    /// Audio capture (WebKitUserMediaPermissionRequest for audio).
    case microphone
    /// Capturing the mouse pointer (WebKitPointerLockPermissionRequest).
    case pointerLock = "pointer-lock"
    /// Reading the clipboard from script (WebKitClipboardPermissionRequest).
    case clipboard
    /// Encrypted Media Extensions key systems, i.e. DRM video (WebKitMediaKeySystemPermissionRequest).
    case mediaKeys = "media-keys"
}

/// `host:permission` in `[Privacy] permissions=`.
public struct PermissionGrant: Sendable, Hashable {
    public var host: String
    public var permission: Permission

    public init(host: String, permission: Permission) {
        self.host = host
        self.permission = permission
    }

    /// Lowercased, without IPv6 brackets, so `[::1]` and `::1` name the same host.
    static func normalized(_ host: String) -> String {
        let lower = host.lowercased()
        return lower.hasPrefix("[") && lower.hasSuffix("]") ? String(lower.dropFirst().dropLast()) : lower
    }
}

/// `[Kiosk]`. The kiosk issue gives these their behaviour; they are defined here so they validate.
public struct KioskSettings: Sendable, Equatable {
    /// `enabled`: full-screen kiosk mode (`--kiosk`).
    public var enabled: Bool
    /// `toolbar`: show the navigation toolbar in kiosk mode.
    public var toolbar: Bool
    /// `shortcuts`: the keyboard shortcuts kept in kiosk mode.
    public var shortcuts: [KioskShortcut]
    /// `printing`: allow printing.
    public var printing: Bool
    /// `idle-timeout`: seconds without input before the session resets to the home page; 0 is off.
    public var idleTimeout: Int
    /// `idle-warning`: seconds of warning shown before that reset.
    public var idleWarning: Int
    /// `hide-cursor`: seconds without pointer movement before the cursor hides; 0 is off.
    public var hideCursor: Int
    /// `reload-every`: seconds between reloads of the current page; 0 is off.
    public var reloadEvery: Int
    /// `exit-pin-hash`: the PIN that leaves kiosk mode; nil means it cannot be left by PIN.
    public var exitPinHash: ExitPinHash?
    /// `exit-chord`: the GTK accelerator that asks for the exit PIN, like `<Control><Alt>q`.
    public var exitChord: String?
    /// `keyboard`, `keyboard-layouts`, `keyboard-height`: the on-screen keyboard. Read at a
    /// desk too, where it is off unless `keyboard=` is set.
    public var keyboard = KeyboardSettings()
    /// `site-menu`: the Sites button in the bottom bar.
    public var siteMenu: KioskSiteMenu = .auto

    public init(enabled: Bool = false, toolbar: Bool = true, shortcuts: [KioskShortcut] = [.back, .forward, .reload],
                printing: Bool = false, idleTimeout: Int = 0, idleWarning: Int = 10, hideCursor: Int = 0,
                reloadEvery: Int = 0, exitPinHash: ExitPinHash? = nil, exitChord: String? = nil) {
        self.enabled = enabled
        self.toolbar = toolbar
        self.shortcuts = shortcuts
        self.printing = printing
        self.idleTimeout = idleTimeout
        self.idleWarning = idleWarning
        self.hideCursor = hideCursor
        self.reloadEvery = reloadEvery
        self.exitPinHash = exitPinHash
        self.exitChord = exitChord
    }
}

/// `[Kiosk] site-menu=`: whether the kiosk's bottom bar has a Sites button.
public enum KioskSiteMenu: String, Sendable, CaseIterable {
    /// Shown when there is more than one site to choose from.
    case auto
    case on = "true"
    case off = "false"

    /// Whether the button shows for `sites`.
    public func shows(for sites: SiteList) -> Bool {
        switch self {
        case .auto: sites.sites.count > 1
        case .on: !sites.isEmpty
        case .off: false
        }
    }
}

/// A browser action whose keyboard shortcut stays available in kiosk mode.
public enum KioskShortcut: String, Sendable, CaseIterable {
    case back, forward, reload, stop, home, zoom, find
}
