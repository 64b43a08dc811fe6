// Which approved site the page shown belongs to, for the Open and Sites menus' mark.
import CGLib

extension SiteList {
    /// The site the page at `uri` is on: same scheme, host and port as the site's URL (a bare
    /// host's site takes http and https), and a path under the site's path; of several, the one
    /// with the longest path (`/mac/` before `/`), then the first listed. Nil for Porthole's own
    /// pages and pages on no site.
    public func current(for uri: String?) -> Site? {
        guard let uri, let page = Parts(uri) else { return nil }
        var best: (site: Site, length: Int)?
        for site in sites {
            let plainHTTP = site.isBareHost && page.scheme == "http" && page.port == 80
            guard let parts = Parts(site.url), parts.host == page.host, parts.port == page.port || plainHTTP,
                  parts.scheme == page.scheme || plainHTTP,
                  Self.path(page.path, isUnder: parts.path) else { continue }
            if best == nil || parts.path.count > best!.length { best = (site, parts.path.count) }
        }
        return best?.site
    }

    private static func path(_ path: String, isUnder prefix: String) -> Bool {
        if prefix.isEmpty || prefix == "/" || path == prefix { return true }
        let directory = prefix.hasSuffix("/") ? prefix : prefix + "/"
        return path.hasPrefix(directory) || (prefix.hasSuffix("/") && path + "/" == prefix)
    }

    private struct Parts {
        let scheme: String, host: String, port: Int32, path: String

        init?(_ uri: String) {
            guard let parsed = g_uri_parse(uri, G_URI_FLAGS_NONE, nil) else { return nil }
            defer { g_uri_unref(parsed) }
            guard let scheme = g_uri_get_scheme(parsed).map({ String(cString: $0).lowercased() }), scheme == "http" || scheme == "https",
                  let host = g_uri_get_host(parsed).map({ String(cString: $0).lowercased() }), !host.isEmpty else { return nil }
            self.scheme = scheme
            self.host = host
            let port = g_uri_get_port(parsed)
            self.port = port > 0 ? port : (scheme == "https" ? 443 : 80)
            path = g_uri_get_path(parsed).map { String(cString: $0) } ?? "/"
        }
    }
}
