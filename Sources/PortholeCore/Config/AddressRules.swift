// What counts as a host name, an IP literal and a site address in a configuration file.
import CGLib
import FoundationEssentials

enum AddressRules {
    /// The schemes a site may use: the web, and Porthole's own pages.
    static let siteSchemes = ["http", "https", "porthole"]

    /// Whether `host` is a DNS host name (internationalised names allowed), an IPv4 address, or an
    /// IPv6 address with or without brackets. No wildcards, ports, paths or trailing dot.
    static func isHost(_ host: String) -> Bool {
        let (hasPercent, isPlainASCII) = host.withUTF8Bytes { bytes in
            (bytes.contains(UInt8(ascii: "%")), !bytes.contains { $0 == 0 || $0 >= 0x80 })
        }
        // An IPv6 zone id (`fe80::1%eth0`) names a local interface; URLs cannot carry one.
        if hasPercent { return false }
        if host.hasPrefix("["), host.hasSuffix("]") {
            let inner = String(host.dropFirst().dropLast())
            return inner.utf8.contains(UInt8(ascii: ":")) && g_hostname_is_ip_address(inner) != 0
        }
        if host.withCString({ g_hostname_is_ip_address($0) }) != 0 { return true }
        guard !host.isEmpty else { return false }
        // For ASCII without NUL, g_hostname_to_ascii only lowercases, which the check below
        // ignores: skipping it keeps 100,000 sites or permissions from costing a copy each.
        if isPlainASCII { return isASCIIHostName(host) }
        guard let ascii = g_hostname_to_ascii(host) else { return false }
        defer { g_free(ascii) }
        return isASCIIHostName(String(cString: ascii))
    }

    /// RFC 1123 labels (letters, digits, hyphens, 1 to 63 characters, no hyphen at either end;
    /// underscores tolerated as browsers do), at most 253 characters, and a last label that is not
    /// all digits, so a mistyped IPv4 address like `300.1.1.1` is not taken for a name.
    private static func isASCIIHostName(_ host: String) -> Bool {
        // One pass on bytes: a config of 100,000 sites checks every host.
        host.withUTF8Bytes { bytes in
            let hyphen = UInt8(ascii: "-")
            var label = 0
            var last: UInt8 = 0
            var allDigits = true
            for byte in bytes {
                if byte == URLBytes.dot {
                    guard (1...63).contains(label), last != hyphen else { return false }
                    label = 0
                    allDigits = true
                    continue
                }
                guard URLBytes.isLetter(byte) || URLBytes.isDigit(byte) || byte == hyphen || byte == UInt8(ascii: "_"),
                      label > 0 || byte != hyphen else { return false }
                label += 1
                last = byte
                allDigits = allDigits && URLBytes.isDigit(byte)
            }
            return bytes.count <= 253 && (1...63).contains(label) && last != hyphen && !allDigits
        }
    }

    /// Checks a `[Sites]` address, parsing it once: the address as the same site would be written
    /// any other way (`apple.com` and `https://APPLE.com/` are one site), or why it cannot be a
    /// site. A site is a bare host, or an http, https or porthole URL with a host, that the policy
    /// itself approves (`URLFilter.approving`), so that a site passing --check-config is never
    /// refused at run time (`[fe80::1%eth0]`, `http://host:0/`).
    static func siteIdentity(_ address: String) -> Result<String, SiteAddressProblem> {
        if address.isEmpty { return .failure(SiteAddressProblem(tr("no address: write a host like example.com or a URL like https://example.com/"))) }
        let site = Site(name: "", address: address)
        if site.isBareHost {
            guard isHost(address) else {
                return .failure(SiteAddressProblem(tr("\"{address}\" is not a host name or IP address; write a URL with its scheme, like https://{address}").filled(["address": address])))
            }
            if let problem = approvalProblem(address, bareHost: true) { return .failure(problem) }
            return .success(joined(["https://", address, "/"], lowercased: true))
        }
        var error: UnsafeMutablePointer<GError>?
        guard let uri = g_uri_parse(address, G_URI_FLAGS_NONE, &error) else {
            return .failure(SiteAddressProblem(tr("\"{address}\" is not a valid URL: {reason}").filled(["address": address, "reason": takeErrorMessage(error)])))
        }
        defer { g_uri_unref(uri) }
        let scheme = String(cString: g_uri_get_scheme(uri)).lowercased()
        guard siteSchemes.contains(scheme) else {
            return .failure(SiteAddressProblem(tr("\"{address}\" has the unsupported scheme {scheme}: use {schemes}")
                .filled(["address": address, "scheme": scheme, "schemes": siteSchemes.joined(separator: ", ")])))
        }
        guard let hostPointer = g_uri_get_host(uri), case let host = String(cString: hostPointer), !host.isEmpty else {
            return .failure(SiteAddressProblem(tr("\"{address}\" has no host").filled(["address": address])))
        }
        guard isHost(host) else {
            return .failure(SiteAddressProblem(tr("\"{address}\" has an invalid host \"{host}\"").filled(["address": address, "host": host])))
        }
        // Porthole's own pages need no filter.
        if scheme != "porthole", let problem = approvalProblem(address, bareHost: false) { return .failure(problem) }
        let name = host.lowercased()
        let bracketed = name.withUTF8Bytes { $0.contains(UInt8(ascii: ":")) } ? "[\(name)]" : name
        let path = String(cString: g_uri_get_path(uri))
        let port = g_uri_get_port(uri)
        let query = g_uri_get_query(uri).map { "?" + String(cString: $0) } ?? ""
        return .success(joined([scheme, "://", bracketed, port == -1 ? "" : ":" + String(port), path.isEmpty ? "/" : path, query]))
    }

    /// The parts as one string, copied into one allocation: appending part by part, as
    /// interpolation does, costs more than the rest of a site's identity. With `lowercased`,
    /// ASCII is lowercased on the way (anything else as `String.lowercased()` does it).
    private static func joined(_ parts: [String], lowercased: Bool = false) -> String {
        let count = parts.reduce(0) { $0 + $1.utf8.count }
        var isASCII = true
        let text = String(unsafeUninitializedCapacity: count) { buffer in
            guard var end = buffer.baseAddress else { return 0 }
            for part in parts {
                part.withUTF8Bytes { bytes in
                    guard let start = bytes.baseAddress else { return }
                    end.initialize(from: start, count: bytes.count)
                    end += bytes.count
                }
            }
            if lowercased {
                isASCII = !buffer.contains { $0 >= 0x80 }
                for index in buffer.indices { buffer[index] = URLBytes.lowercased(buffer[index]) }
            }
            return count
        }
        // Lowercasing bytes is only right for ASCII.
        return isASCII ? text : joined(parts).lowercased()
    }

    /// Why the policy cannot approve `address` as a site, or nil when it can.
    private static func approvalProblem(_ address: String, bareHost: Bool) -> SiteAddressProblem? {
        do {
            _ = try URLFilter.approving(address: address, bareHost: bareHost)
            return nil
        } catch {
            return SiteAddressProblem(tr("\"{address}\" cannot be approved: {reason}")
                .replacing("{address}", with: address).replacing("{reason}", with: error.reason))
        }
    }
}

/// Why a `[Sites]` address cannot be a site.
struct SiteAddressProblem: Error {
    var message: String

    init(_ message: String) { self.message = message }
}
