// The compiled filter lists: rules in Chrome's precedence order and an index keyed by host.

/// A filter in a list, with what precedence needs and the decision it gives.
struct Rule: Sendable {
    let filter: URLFilter
    let allow: Bool
    /// Position in Chrome's order (block filters first, then allow filters, each as listed);
    /// the earlier of two otherwise equal filters decides.
    let order: Int32
    /// The block filter `*` alone, which ranks below every other filter.
    let isWildcardBlock: Bool
    let decision: PolicyDecision

    init(filter: URLFilter, allow: Bool, order: Int, site: String?) {
        self.filter = filter
        self.allow = allow
        self.order = Int32(order)
        isWildcardBlock = !allow && filter.hostBytes.isEmpty && filter.schemeName == nil && filter.portNumber == 0
            && filter.pathBytes.isEmpty && filter.queryTokens.isEmpty
        let quoted = "filter \"\(filter.text)\""
        if allow {
            let from = site.map { " (site \"\($0)\")" } ?? ""
            decision = .allowed("allowed by \(quoted)\(from)", filter: filter.text)
        } else if isWildcardBlock {
            decision = .blocked("blocked by \(quoted): not on the approved list", filter: filter.text)
        } else {
            decision = .blocked("blocked by \(quoted)", filter: filter.text)
        }
    }

    /// Chrome's `FilterTakesPrecedence` (components/policy/core/browser/url_blocklist_manager.cc):
    /// the block filter `*` ranks lowest; then an exact-host filter beats a subdomain filter; then
    /// the longer host, the longer path, the more query tokens; then allow beats block.
    @inline(__always)
    func takesPrecedence(over other: Rule) -> Bool {
        if isWildcardBlock != other.isWildcardBlock { return other.isWildcardBlock }
        if filter.matchesSubdomains != other.filter.matchesSubdomains { return !filter.matchesSubdomains }
        if filter.hostBytes.count != other.filter.hostBytes.count {
            return filter.hostBytes.count > other.filter.hostBytes.count
        }
        if filter.pathBytes.count != other.filter.pathBytes.count {
            return filter.pathBytes.count > other.filter.pathBytes.count
        }
        if filter.queryTokens.count != other.filter.queryTokens.count {
            return filter.queryTokens.count > other.filter.queryTokens.count
        }
        if allow != other.allow { return allow }
        return order < other.order
    }
}

/// Finds the deciding rule for a URL without scanning the lists.
///
/// Filters with a host sit in buckets keyed by a hash of that host. A URL's host is hashed
/// once, right to left, giving the hash of every suffix that starts at a label
/// (`a.b.example.com`, `b.example.com`, `example.com`, `com`); the buckets are probed from the
/// full host down. Because a longer host always wins and exact-host filters only match the full
/// host, the first level with a matching filter holds the answer. Only when no host filter
/// matches are the host-less filters (`*`, `https://*`, `*:8080`, `*/path`) consulted. Filters
/// for other schemes (`file:`, `data:`, `javascript:*`, `custom:*`) sit in lists by scheme name.
/// A decision costs O(host labels + filters at the probed hosts).
struct FilterIndex: Sendable {
    struct Bucket: Sendable {
        let host: [UInt8]
        /// The next bucket whose host has the same hash, -1 at the end of the chain.
        let next: Int32
        var exact: [Int32] = []
        var subdomain: [Int32] = []
    }

    let rules: [Rule]
    private var slots: [UInt64: Int32] = [:]
    private var buckets: [Bucket] = []
    /// Host-less rules for web URLs: index 0 for rules without a scheme, else the scheme's raw value.
    private var anyHost: [[Int32]] = Array(repeating: [], count: Int(SchemeKind.ftp.rawValue) + 1)
    private var byScheme: [String: [Int32]] = [:]

    init(rules: [Rule]) {
        self.rules = rules
        slots.reserveCapacity(rules.count)
        buckets.reserveCapacity(rules.count)
        for (position, rule) in rules.enumerated() {
            let id = Int32(position)
            let filter = rule.filter
            if let kind = filter.schemeKind, !kind.isWeb, let name = filter.scheme {
                byScheme[name, default: []].append(id)
            } else if filter.hostBytes.isEmpty {
                anyHost[Int(filter.schemeKind?.rawValue ?? 0)].append(id)
            } else {
                let bucket = bucketIndex(for: filter.hostBytes)
                if filter.matchesSubdomains {
                    buckets[bucket].subdomain.append(id)
                } else {
                    buckets[bucket].exact.append(id)
                }
            }
        }
    }

    private mutating func bucketIndex(for host: [UInt8]) -> Int {
        let hash = host.withUnsafeBufferPointer { FilterIndex.hash($0, from: 0, to: $0.count) }
        var index = slots[hash] ?? -1
        while index >= 0 {
            if buckets[Int(index)].host == host { return Int(index) }
            index = buckets[Int(index)].next
        }
        buckets.append(Bucket(host: host, next: slots[hash] ?? -1))
        slots[hash] = Int32(buckets.count - 1)
        return buckets.count - 1
    }

    private static let fnvOffset: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let fnvPrime: UInt64 = 0x0000_0100_0000_01b3

    /// FNV-1a over `bytes[from..<to]`, last byte first, so a URL host yields every suffix's
    /// hash in one pass.
    @inline(__always)
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> UInt64 {
        var hash = fnvOffset
        var index = to - 1
        while index >= from {
            hash = (hash ^ UInt64(bytes[index])) &* fnvPrime
            index -= 1
        }
        return hash
    }

    /// The bucket for the host `bytes[start..<end]`, verified byte for byte.
    @inline(__always)
    private func bucket(hash: UInt64, _ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Int? {
        guard var index = slots[hash] else { return nil }
        while index >= 0 {
            let host = buckets[Int(index)].host
            if host.count == end - start, URLBytes.equal(host, bytes, at: start) { return Int(index) }
            index = buckets[Int(index)].next
        }
        return nil
    }

    /// The deciding rule for a web URL (http, https, ws, wss, ftp), or nil when none matches.
    func best(forWeb url: URLView) -> Rule? {
        let layout = url.layout
        let bytes = url.bytes
        var best = -1
        if layout.hostKind == .domain {
            let labels = (layout.hostEnd - layout.hostStart + 1) / 2 + 1
            best = withUnsafeTemporaryAllocation(of: (start: Int, hash: UInt64).self, capacity: labels) { suffixes in
                var count = 0
                var hash = FilterIndex.fnvOffset
                var index = layout.hostEnd - 1
                while index >= layout.hostStart {
                    hash = (hash ^ UInt64(bytes[index])) &* FilterIndex.fnvPrime
                    if index == layout.hostStart || bytes[index - 1] == URLBytes.dot {
                        suffixes[count] = (index, hash)
                        count += 1
                    }
                    index -= 1
                }
                var found = -1
                var level = count - 1
                while level >= 0, found < 0 {
                    let suffix = suffixes[level]
                    if let bucket = bucket(hash: suffix.hash, bytes, start: suffix.start, end: layout.hostEnd) {
                        if level == count - 1 { consider(buckets[bucket].exact, url, &found) }
                        consider(buckets[bucket].subdomain, url, &found)
                    }
                    level -= 1
                }
                return found
            }
        } else if layout.hostKind != .none {
            let hash = FilterIndex.hash(bytes, from: layout.hostStart, to: layout.hostEnd)
            if let bucket = bucket(hash: hash, bytes, start: layout.hostStart, end: layout.hostEnd) {
                consider(buckets[bucket].exact, url, &best)
            }
        }
        if best < 0 {
            consider(anyHost[0], url, &best)
            consider(anyHost[Int(layout.scheme.rawValue)], url, &best)
        }
        return best < 0 ? nil : rules[best]
    }

    /// The deciding rule among the filters that name the URL's scheme (`file:`, `data:`,
    /// `javascript:*`, …), or nil when none names it or none matches.
    func best(forScheme scheme: String, _ url: URLView) -> Rule? {
        guard let list = byScheme[scheme] else { return nil }
        var best = -1
        consider(list, url, &best, checkHost: true)
        return best < 0 ? nil : rules[best]
    }

    @inline(__always)
    private func consider(_ list: [Int32], _ url: URLView, _ best: inout Int, checkHost: Bool = false) {
        for id in list {
            let rule = rules[Int(id)]
            guard !checkHost || rule.filter.matchesHost(url),
                  rule.filter.matchesBeyondHost(url, asAllowFilter: rule.allow) else { continue }
            if best < 0 || rule.takesPrecedence(over: rules[best]) { best = Int(id) }
        }
    }
}
