// `[Network]`: the proxy WebKit sends requests through, and how proxy values are checked.
import CGLib
import FoundationEssentials

/// `[Network]`. Without `proxy` WebKit follows the system's proxy settings (GNOME's or the
/// environment's), as before.
public struct NetworkSettings: Sendable, Equatable {
    /// `proxy`: every request goes through this proxy, like `http://proxy.school.example:3128`.
    public var proxy: String?
    /// `proxy-ignore`: hosts reached directly, not through `proxy`.
    public var proxyIgnore: [String]

    public init(proxy: String? = nil, proxyIgnore: [String] = []) {
        self.proxy = proxy
        self.proxyIgnore = proxyIgnore
    }
}

enum ProxyRules {
    /// The proxy schemes libsoup (WebKit's network stack, through GProxyResolver) speaks.
    static let schemes = ["http", "https", "socks", "socks4", "socks4a", "socks5"]

    /// Why `address` cannot be a proxy (`scheme://host[:port]`), or nil.
    static func proxyProblem(_ address: String) -> String? {
        var error: UnsafeMutablePointer<GError>?
        guard let uri = g_uri_parse(address, G_URI_FLAGS_NONE, &error) else {
            return tr("\"{address}\" is not a valid URL: {reason}; write a proxy like http://proxy.example:3128")
                .replacing("{address}", with: address)
                .replacing("{reason}", with: takeErrorMessage(error))
        }
        defer { g_uri_unref(uri) }
        let scheme = String(cString: g_uri_get_scheme(uri)).lowercased()
        guard schemes.contains(scheme) else {
            return tr("\"{address}\" has the unsupported proxy scheme {scheme}: use {schemes}")
                .replacing("{address}", with: address)
                .replacing("{scheme}", with: scheme)
                .replacing("{schemes}", with: schemes.joined(separator: ", "))
        }
        guard let host = g_uri_get_host(uri).map({ String(cString: $0) }), AddressRules.isHost(host) else {
            return tr("\"{address}\" has no valid host").replacing("{address}", with: address)
        }
        let path = String(cString: g_uri_get_path(uri))
        guard path.isEmpty || path == "/", g_uri_get_query(uri) == nil, g_uri_get_fragment(uri) == nil else {
            return tr("\"{address}\": a proxy is scheme://host[:port], without a path, query or fragment")
                .replacing("{address}", with: address)
        }
        return nil
    }

    /// Why `entry` cannot be a `proxy-ignore` entry, or nil: a host, `*.domain`, or an IP address
    /// range in CIDR notation (what GSimpleProxyResolver's ignore list reads).
    static func ignoreProblem(_ entry: String) -> String? {
        if AddressRules.isHost(entry) { return nil }
        if entry.hasPrefix("*."), AddressRules.isHost(String(entry.dropFirst(2))) { return nil }
        if let slash = entry.lastIndex(of: "/") {
            let address = String(entry[..<slash])
            let bits = Int(entry[entry.index(after: slash)...])
            let maximum = address.contains(":") ? 128 : 32
            if g_hostname_is_ip_address(address) != 0, let bits, (0...maximum).contains(bits) { return nil }
        }
        return tr("\"{entry}\" is not a host, *.domain or IP address range like 10.0.0.0/8")
            .replacing("{entry}", with: entry)
    }
}
