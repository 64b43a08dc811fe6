// Which approved sites a long Open menu shows: the first screenful matching what was typed.
import FoundationEssentials

public enum SiteSearch {
    /// Lists longer than this get a search field; shorter ones are shown whole as a plain menu.
    public static let searchableFrom = 16
    /// At most this many sites are shown at once: a screenful, and GTK builds only these.
    public static let screenful = 12

    /// The first `limit` sites whose name or address contains every word of `query` (ignoring
    /// case), in list order, and how many match in all. An empty query matches every site.
    public static func matches(_ sites: [Site], query: String, limit: Int = screenful) -> (shown: [Site], total: Int) {
        let words = query.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" })
        var shown: [Site] = []
        var total = 0
        for site in sites {
            if !words.isEmpty {
                let name = site.name.lowercased(), address = site.address.lowercased()
                guard words.allSatisfy({ name.contains($0) || address.contains($0) }) else { continue }
            }
            total += 1
            if shown.count < limit { shown.append(site) }
        }
        return (shown, total)
    }

    /// The line under the matches: how many more there are, or that none match; nil when all show.
    public static func note(shown: Int, total: Int) -> String? {
        if total == 0 { return tr("No site matches") }
        let hidden = total - shown
        guard hidden > 0 else { return nil }
        return trn("{count} more site: type to narrow the list", "{count} more sites: type to narrow the list", hidden)
            .replacing("{count}", with: String(hidden))
    }
}
