// What counts as a host name, an IP literal and a site address in a configuration file.
import CGLib
import FoundationEssentials

enum AddressRules {
    /// The schemes a site may use: the web, and Porthole's own pages.
    static let siteSchemes = ["http", "https", "porthole"]

    /// Whether `host` is a DNS host name (internationalised names allowed), an IPv4 address, or an
    /// IPv6 address with or without brackets. No wildcards, ports, paths or trailing dot.
    static func isHost(_ host: String) -> Bool {
        // An IPv6 zone id (`fe80::1%eth0`) names a local interface; URLs cannot carry one.
        if host.utf8.contains(UInt8(ascii: "%")) { return false }
        if host.hasPrefix("["), host.hasSuffix("]") {
            let inner = String(host.dropFirst().dropLast())
            return inner.utf8.contains(UInt8(ascii: ":")) && g_hostname_is_ip_address(inner) != 0
        }
        if g_hostname_is_ip_address(host) != 0 { return true }
        guard !host.isEmpty, let ascii = g_hostname_to_ascii(host) else { return false }
        defer { g_free(ascii) }
        return isASCIIHostName(String(cString: ascii))
    }

    /// RFC 1123 labels (letters, digits, hyphens, 1 to 63 characters, no hyphen at either end;
    /// underscores tolerated as browsers do), at most 253 characters, and a last label that is not
    /// all digits, so a mistyped IPv4 address like `300.1.1.1` is not taken for a name.
    private static func isASCIIHostName(_ host: String) -> Bool {
        // On bytes: a config of 100,000 sites checks every host, and Unicode properties are slow.
        let bytes = Array(host.utf8)
        let labels = bytes.split(separator: URLBytes.dot, omittingEmptySubsequences: false)
        guard bytes.count <= 253, let last = labels.last, !last.allSatisfy(URLBytes.isDigit) else { return false }
        let hyphen = UInt8(ascii: "-")
        return labels.allSatisfy { label in
            (1...63).contains(label.count) && label.first != hyphen && label.last != hyphen
                && label.allSatisfy { URLBytes.isLetter($0) || URLBytes.isDigit($0) || $0 == hyphen || $0 == UInt8(ascii: "_") }
        }
    }

    /// Why `address` cannot be a site (a bare host, or an http, https or porthole URL with a
    /// host), or nil when it can.
    static func siteAddressProblem(_ address: String) -> String? {
        if let problem = addressProblem(address) { return problem }
        // What the policy itself says, so that a site passing --check-config is never refused at
        // run time (`[fe80::1%eth0]`, `http://host:0/`). Porthole's own pages need no filter.
        if address.lowercased().hasPrefix("porthole:") { return nil }
        do {
            _ = try URLFilter.approving(address: address, bareHost: Site(name: "", address: address).isBareHost)
            return nil
        } catch {
            return tr("\"{address}\" cannot be approved: {reason}")
                .replacing("{address}", with: address).replacing("{reason}", with: error.reason)
        }
    }

    private static func addressProblem(_ address: String) -> String? {
        if address.isEmpty { return tr("no address: write a host like example.com or a URL like https://example.com/") }
        if Site(name: "", address: address).isBareHost {
            if isHost(address) { return nil }
            return tr("\"{address}\" is not a host name or IP address; write a URL with its scheme, like https://{address}").filled(["address": address])
        }
        var error: UnsafeMutablePointer<GError>?
        guard let uri = g_uri_parse(address, G_URI_FLAGS_NONE, &error) else {
            return tr("\"{address}\" is not a valid URL: {reason}").filled(["address": address, "reason": takeErrorMessage(error)])
        }
        defer { g_uri_unref(uri) }
        let scheme = String(cString: g_uri_get_scheme(uri)).lowercased()
        guard siteSchemes.contains(scheme) else {
            return tr("\"{address}\" has the unsupported scheme {scheme}: use {schemes}")
                .filled(["address": address, "scheme": scheme, "schemes": siteSchemes.joined(separator: ", ")])
        }
        guard let hostPointer = g_uri_get_host(uri), case let host = String(cString: hostPointer), !host.isEmpty else {
            return tr("\"{address}\" has no host").filled(["address": address])
        }
        return isHost(host) ? nil : tr("\"{address}\" has an invalid host \"{host}\"").filled(["address": address, "host": host])
    }

    /// The address as the same site would be written any other way: `apple.com` and
    /// `https://APPLE.com/` are one site.
    static func siteIdentity(_ address: String) -> String {
        let site = Site(name: "", address: address)
        guard !site.isBareHost else { return site.url.lowercased() }
        var error: UnsafeMutablePointer<GError>?
        guard let uri = g_uri_parse(address, G_URI_FLAGS_NONE, &error) else {
            g_clear_error(&error)
            return address
        }
        defer { g_uri_unref(uri) }
        let scheme = String(cString: g_uri_get_scheme(uri)).lowercased()
        let name = g_uri_get_host(uri).map { String(cString: $0).lowercased() } ?? ""
        let host = name.utf8.contains(UInt8(ascii: ":")) ? "[\(name)]" : name
        let path = String(cString: g_uri_get_path(uri))
        let port = g_uri_get_port(uri)
        let query = g_uri_get_query(uri).map { "?" + String(cString: $0) } ?? ""
        return "\(scheme)://\(host)\(port == -1 ? "" : ":\(port)")\(path.isEmpty ? "/" : path)\(query)"
    }
}
