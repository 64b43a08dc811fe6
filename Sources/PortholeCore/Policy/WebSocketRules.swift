// WebSocket handshakes never pass the web process's send-request, so with subresources=policy
// they are refused by WebKit content rules compiled from the same policy, erring towards blocking.

extension WebProcessPolicy {
    /// WebKit content rules (the JSON of WebKitUserContentFilterStore) that refuse every WebSocket
    /// the policy would block, or nil when subresources are not governed (`subresources=allow`).
    ///
    /// The first rule blocks every WebSocket; then the host-wide filters follow from the least to
    /// the most specific (as SitePolicy ranks them: exact host over subdomains, then the longer
    /// host; on a tie allow last), each allow filter lifting the block for its host
    /// (`ignore-previous-rules`) and each block filter blocking again; block filters narrower than
    /// a host (a path, a query, a port, an odd host) come last and block their whole host (or
    /// every WebSocket). Allow filters narrower than a host, or for other schemes, lift nothing.
    /// So a WebSocket passes only to a host the policy allows as a whole.
    public func webSocketRules() -> String? {
        guard subresources == .policy else { return nil }
        var allowFilters: [URLFilter] = []
        for site in sites where !site.address.lowercased().hasPrefix(PortholePage.scheme + ":") {
            if let filter = try? URLFilter.approving(site) { allowFilters.append(filter) }
        }
        allowFilters += allow.compactMap { try? URLFilter.parse($0) }
        let blockFilters = block.compactMap { try? URLFilter.parse($0) }

        var ranked: [(rank: (Int, Int, Int), rule: String)] = []
        var last: [String] = []
        for filter in allowFilters {
            guard let pattern = Self.hostPattern(filter), Self.isHostWide(filter),
                  filter.scheme == nil || filter.scheme == "ws" || filter.scheme == "wss" else { continue }
            ranked.append((Self.rank(filter, allow: true), Self.rule(pattern, action: "ignore-previous-rules")))
        }
        for filter in blockFilters where !(filter.matchesAnyHost && Self.isHostWide(filter)) {
            if let pattern = Self.hostPattern(filter), Self.isHostWide(filter), filter.port == nil {
                ranked.append((Self.rank(filter, allow: false), Self.rule(pattern, action: "block")))
            } else {
                last.append(Self.rule(Self.hostPattern(filter) ?? "^wss?://", action: "block"))
            }
        }
        let ordered = ranked.enumerated().sorted { a, b in
            a.element.rank != b.element.rank ? a.element.rank < b.element.rank : a.offset < b.offset
        }.map(\.element.rule)
        return "[" + ([Self.rule("^wss?://", action: "block")] + ordered + last).joined(separator: ",") + "]"
    }

    /// SitePolicy's order, least specific first: subdomain filters before exact-host ones, shorter
    /// hosts before longer, block before allow (allow wins a tie).
    private static func rank(_ filter: URLFilter, allow: Bool) -> (Int, Int, Int) {
        (filter.matchesSubdomains ? 0 : 1, filter.host.utf8.count, allow ? 1 : 0)
    }

    /// Whether the filter covers a whole host (any path, any query).
    private static func isHostWide(_ filter: URLFilter) -> Bool {
        (filter.path.isEmpty || filter.path == "/") && filter.query.isEmpty
    }

    /// A url-filter for WebSocket URLs to the filter's host (and subdomains unless it is exact),
    /// on its port when it names one. Only hosts of letters, digits, `-` and `.` get a pattern, so
    /// no userinfo or odd host can match it; nil for others.
    private static func hostPattern(_ filter: URLFilter) -> String? {
        if filter.matchesAnyHost { return "^wss?://" }
        let host = filter.host.lowercased()
        guard host.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "." }) else {
            return nil
        }
        let escaped = host.replacing(".", with: "\\\\.")
        let subdomains = filter.matchesSubdomains ? "([a-z0-9-]+\\\\.)*" : ""
        let port = filter.port.map { ":\($0)" } ?? "(:[0-9]+)?"
        return "^wss?://" + subdomains + escaped + port + "/"
    }

    private static func rule(_ pattern: String, action: String) -> String {
        "{\"trigger\":{\"url-filter\":\"\(pattern)\",\"resource-type\":[\"websocket\"]},\"action\":{\"type\":\"\(action)\"}}"
    }
}
