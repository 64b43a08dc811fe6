// URLs read as GLib's URI parser reads them: the host, the file name, the HTTPS upgrade, file URIs.
import CGLib

public enum URLHelpers {
    /// The host of `url` as GLib's URI parser reads it, or nil for URLs without one.
    public static func host(of url: String) -> String? {
        guard let uri = g_uri_parse(url, G_URI_FLAGS_NON_DNS, nil) else { return nil }
        defer { g_uri_unref(uri) }
        guard let host = g_uri_get_host(uri), host.pointee != 0 else { return nil }
        if let scheme = g_uri_get_scheme(uri), String(cString: scheme) == PortholePage.scheme { return nil }
        return String(cString: host)
    }

    /// The last path segment of `url`, unescaped, when it names a file (`leaflet.pdf`); nil for
    /// a directory, a bare host or a segment without an extension.
    public static func fileName(of url: String) -> String? {
        guard let uri = g_uri_parse(url, G_URI_FLAGS_NON_DNS, nil) else { return nil }
        defer { g_uri_unref(uri) }
        guard let path = g_uri_get_path(uri).map({ String(cString: $0) }),
              let last = path.split(separator: "/", omittingEmptySubsequences: false).last, !last.isEmpty,
              let dot = last.lastIndex(of: "."), dot != last.startIndex, last.index(after: dot) != last.endIndex else { return nil }
        guard let unescaped = g_uri_unescape_string(String(last), nil) else { return String(last) }
        defer { g_free(unescaped) }
        return String(cString: unescaped)
    }

    /// `http://…` as `https://…`; any other URL unchanged.
    public static func upgradingToHTTPS(_ url: String) -> String {
        guard url.count >= 7, url.prefix(7).lowercased() == "http://" else { return url }
        return "https://" + url.dropFirst(7)
    }

    /// A `file://` URI for a local path (relative paths resolve against the working directory).
    public static func fileURI(forPath path: String) -> String? {
        let absolute = g_canonicalize_filename(path, nil)
        defer { g_free(absolute) }
        guard let uri = g_filename_to_uri(absolute, nil, nil) else { return nil }
        defer { g_free(uri) }
        return String(cString: uri)
    }
}
