// What kind of failure a failed page load was, from its GError: what decides retrying.
import CGLib

/// A failed main-frame load, classified by its error's domain and code.
public enum LoadFailure: Sendable, Equatable {
    /// A new load replaced this one; nothing to show.
    case cancelled
    /// The network or the server could not be reached: worth trying again.
    case network
    /// Porthole refused something inside the load (a redirect hop, the response):
    /// WebKit's FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE.
    case interruptedByPolicy
    /// Anything else (unknown scheme, missing file): retrying will not help.
    case other

    /// WebKit's `WEBKIT_NETWORK_ERROR` domain (`webkit_network_error_quark()`) and the codes from
    /// WebKitError.h: FAILED 399, TRANSPORT 300, CANCELLED 302.
    static let webKitNetworkDomain = "WebKitNetworkError"
    /// WebKit's `WEBKIT_POLICY_ERROR` domain; FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE is 102.
    static let webKitPolicyDomain = "WebKitPolicyError"

    /// Classifies a load-failed GError by its domain name (`g_quark_to_string`) and code.
    public static func classify(domain: String, code: Int32) -> LoadFailure {
        switch domain {
        case webKitPolicyDomain:
            return code == 102 ? .interruptedByPolicy : .other
        case webKitNetworkDomain:
            switch code {
            case 302: return .cancelled
            case 300, 399: return .network
            default: return .other
            }
        case String(cString: g_quark_to_string(g_io_error_quark())):
            // GIO's "Operation was cancelled" is a cancellation too (a load replaced or stopped).
            if code == Int32(G_IO_ERROR_CANCELLED.rawValue) { return .cancelled }
            return retryableIOErrors.contains(code) ? .network : .other
        case String(cString: g_quark_to_string(g_resolver_error_quark())):
            // Host not found, temporary failure: DNS comes back with the network.
            return .network
        default:
            return .other
        }
    }

    /// GIO errors that mean the network or server is (for now) out of reach.
    static let retryableIOErrors: Set<Int32> = Set([
        G_IO_ERROR_CONNECTION_REFUSED, G_IO_ERROR_HOST_UNREACHABLE, G_IO_ERROR_NETWORK_UNREACHABLE,
        G_IO_ERROR_TIMED_OUT, G_IO_ERROR_CONNECTION_CLOSED, G_IO_ERROR_NOT_CONNECTED,
        G_IO_ERROR_HOST_NOT_FOUND, G_IO_ERROR_PROXY_FAILED, G_IO_ERROR_BROKEN_PIPE,
    ].map { Int32($0.rawValue) })
}
