// The compiled filter lists: plain-data rules in one byte pool, indexed by host.

/// Finds the deciding filter for a URL without scanning the lists.
///
/// Filters with a host sit in buckets found by a hash of that host (open addressing, behind a
/// one-bit-per-host presence filter). A URL's host is hashed once, right to left, which gives the
/// hash of every suffix that starts at a label (`a.b.example.com`, `b.example.com`,
/// `example.com`, `com`); the buckets are probed from the full host down. Because a longer host always wins and exact-host filters only match the
/// full host, the first level with a matching filter holds the answer. Only when no host filter
/// matches are the host-less filters (`*`, `https://*`, `*:8080`, `*/path`) consulted. Filters
/// for other schemes (`file:`, `data:`, `javascript:*`, `custom:*`) sit in lists by scheme name.
/// A decision costs O(host labels + filters at the probed hosts).
///
/// Everything the decision reads is plain data (spans into one byte pool), so the loop does no
/// reference counting and no allocation.
struct FilterIndex: Sendable {
    /// One filter of either list.
    struct Entry: Sendable {
        var filter: CompiledFilter
        var allow: Bool
        /// The block filter `*` alone, which ranks below every other filter.
        var isWildcardBlock: Bool
    }

    struct Slot: Sendable {
        var tag: UInt32 = 0
        var bucket: Int32 = -1
    }

    /// The filters for one host; `exact` and `subdomain` are spans of `ids`.
    struct Bucket: Sendable {
        var host: CompiledFilter.Span
        /// The next bucket whose host has the same tag, -1 at the end.
        var next: Int32
        var exact = CompiledFilter.Span(start: 0, count: 0)
        var subdomain = CompiledFilter.Span(start: 0, count: 0)
    }

    /// Entries in Chrome's order: block filters first, then allow filters, each as listed; the
    /// earlier of two otherwise equal filters decides.
    let entries: [Entry]
    /// Each entry's filter as written.
    let texts: [String]
    /// How many entries are block filters; allow filters follow them.
    let blockCount: Int
    private let pool: [UInt8]
    private let tokens: [CompiledFilter.Token]
    private let ids: [Int32]
    private let buckets: [Bucket]
    /// Open-addressing table from a host's 32-bit tag (never 0) to its first bucket; tag 0 marks
    /// a free slot. Hosts whose tags collide share a bucket chain.
    private let slots: [Slot]
    private let slotShift: UInt64
    /// One bit per host hash, checked before the table: most probed suffixes (`com`, unknown
    /// hosts) are absent, and this 8-bits-a-host filter answers that from cache.
    private let presence: [UInt64]
    private let presenceShift: UInt64
    /// Host-less entries for web URLs: index 0 without a scheme, else the scheme's raw value.
    private let anyHost: [[Int32]]
    private let byScheme: [String: [Int32]]

    /// Collects filters into one pool: block filters first, then allow filters, as in Chrome.
    struct Builder {
        fileprivate var pool = FilterPool()
        fileprivate var entries: [Entry] = []
        fileprivate var texts: [String] = []
        fileprivate var blockCount = 0

        init(capacity: Int) {
            entries.reserveCapacity(capacity)
            texts.reserveCapacity(capacity)
            pool.bytes.reserveCapacity(capacity * 16)
        }

        /// Parses `text` straight into the pool.
        mutating func add(_ text: String, allow: Bool) throws(FilterError) {
            add(pool.append(try FilterParser.parts(text)), text: text, allow: allow)
        }

        mutating func add(_ filter: URLFilter, allow: Bool) {
            add(pool.append(filter), text: filter.text, allow: allow)
        }

        private mutating func add(_ filter: CompiledFilter, text: String, allow: Bool) {
            precondition(allow || entries.count == blockCount, "block filters come before allow filters")
            let wildcard = !allow && filter.scheme == 0 && filter.host.count == 0 && filter.port == 0
                && filter.path.count == 0 && filter.tokens.count == 0
            entries.append(Entry(filter: filter, allow: allow, isWildcardBlock: wildcard))
            texts.append(text)
            if !allow { blockCount += 1 }
        }
    }

    init(_ builder: Builder) {
        let entries = builder.entries
        let pool = builder.pool.bytes
        var anyHost = Array(repeating: [Int32](), count: Int(SchemeKind.ftp.rawValue) + 1)
        var byScheme: [String: [Int32]] = [:]
        var hostEntries: [Int32] = []
        for (id, entry) in entries.enumerated() {
            let filter = entry.filter
            if filter.scheme != 0, !(SchemeKind(rawValue: filter.scheme)?.isWeb ?? false) {
                let name = String(decoding: pool[Int(filter.schemeName.start)..<Int(filter.schemeName.end)], as: UTF8.self)
                byScheme[name, default: []].append(Int32(id))
            } else if filter.host.count == 0 {
                anyHost[Int(filter.scheme)].append(Int32(id))
            } else {
                hostEntries.append(Int32(id))
            }
        }

        // Buckets: one per distinct host, found through the open-addressing table.
        var capacity = 16
        while capacity < hostEntries.count * 2 { capacity *= 2 }
        let shift = UInt64(64 - capacity.trailingZeroBitCount)
        var presenceBits = 64
        while presenceBits < hostEntries.count * 8 { presenceBits *= 2 }
        let presenceShift = UInt64(64 - presenceBits.trailingZeroBitCount)
        var presence = [UInt64](repeating: 0, count: presenceBits / 64)
        var slots = [Slot](repeating: Slot(), count: capacity)
        var buckets: [Bucket] = []
        var bucketOf = [Int32](repeating: -1, count: entries.count)
        pool.withUnsafeBufferPointer { pool in
            for id in hostEntries {
                let host = entries[Int(id)].filter.host
                let hash = FilterIndex.hash(pool, from: Int(host.start), to: Int(host.end))
                let bit = FilterIndex.presenceBit(hash, presenceShift)
                presence[bit >> 6] |= 1 << UInt64(bit & 63)
                let tag = FilterIndex.tag(hash)
                var slot = FilterIndex.slot(hash, shift)
                while slots[slot].tag != 0, slots[slot].tag != tag { slot = (slot + 1) & (capacity - 1) }
                var bucket = slots[slot].bucket
                while bucket >= 0 {
                    let candidate = buckets[Int(bucket)].host
                    if candidate.count == host.count,
                       URLBytes.equal(pool, candidate, pool, at: Int(host.start)) { break }
                    bucket = buckets[Int(bucket)].next
                }
                if bucket < 0 {
                    buckets.append(Bucket(host: host, next: slots[slot].bucket))
                    bucket = Int32(buckets.count - 1)
                    slots[slot] = Slot(tag: tag, bucket: bucket)
                }
                bucketOf[Int(id)] = bucket
                if entries[Int(id)].filter.matchesSubdomains {
                    buckets[Int(bucket)].subdomain.count += 1
                } else {
                    buckets[Int(bucket)].exact.count += 1
                }
            }
        }
        // Lay the buckets' lists out back to back in `ids`, in entry order.
        var next: Int32 = 0
        for index in buckets.indices {
            buckets[index].exact.start = next
            next += buckets[index].exact.count
            buckets[index].subdomain.start = next
            next += buckets[index].subdomain.count
            buckets[index].exact.count = 0
            buckets[index].subdomain.count = 0
        }
        var ids = [Int32](repeating: 0, count: Int(next))
        for id in hostEntries {
            let bucket = Int(bucketOf[Int(id)])
            if entries[Int(id)].filter.matchesSubdomains {
                ids[Int(buckets[bucket].subdomain.end)] = id
                buckets[bucket].subdomain.count += 1
            } else {
                ids[Int(buckets[bucket].exact.end)] = id
                buckets[bucket].exact.count += 1
            }
        }

        self.entries = entries
        texts = builder.texts
        blockCount = builder.blockCount
        self.pool = pool
        tokens = builder.pool.tokens
        self.ids = ids
        self.buckets = buckets
        self.slots = slots
        slotShift = shift
        self.presence = presence
        self.presenceShift = presenceShift
        self.anyHost = anyHost
        self.byScheme = byScheme
    }

    private static let fnvOffset: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let fnvPrime: UInt64 = 0x0000_0100_0000_01b3

    /// FNV-1a over `bytes[from..<to]`, last byte first, so that one pass over a URL host yields
    /// the hash of every suffix. Never 0, which marks free slots.
    @inline(__always)
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> UInt64 {
        var hash = fnvOffset
        var index = to - 1
        while index >= from {
            hash = (hash ^ UInt64(bytes[index])) &* fnvPrime
            index -= 1
        }
        return hash | 1
    }

    @inline(__always)
    private static func slot(_ hash: UInt64, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    @inline(__always)
    private static func tag(_ hash: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: hash >> 32) | 1
    }

    @inline(__always)
    private static func presenceBit(_ hash: UInt64, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (hash &* 0xC2B2_AE3D_27D4_EB4F) >> shift)
    }

    /// Tables borrowed for one decision.
    private struct Tables {
        let entries: UnsafeBufferPointer<Entry>
        let pool: UnsafeBufferPointer<UInt8>
        let tokens: UnsafeBufferPointer<CompiledFilter.Token>
        let ids: UnsafeBufferPointer<Int32>
        let buckets: UnsafeBufferPointer<Bucket>
        let slots: UnsafeBufferPointer<Slot>
        let slotShift: UInt64
        let presence: UnsafeBufferPointer<UInt64>
        let presenceShift: UInt64

        /// The bucket for the host `bytes[start..<end]` with hash `hash`, verified byte for byte.
        @inline(__always)
        func bucket(_ hash: UInt64, _ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Int {
            let bit = FilterIndex.presenceBit(hash, presenceShift)
            guard presence[bit >> 6] & (1 << UInt64(bit & 63)) != 0 else { return -1 }
            let mask = slots.count - 1
            let tag = FilterIndex.tag(hash)
            var slot = FilterIndex.slot(hash, slotShift)
            while slots[slot].tag != tag {
                if slots[slot].tag == 0 { return -1 }
                slot = (slot + 1) & mask
            }
            var bucket = Int(slots[slot].bucket)
            while bucket >= 0 {
                let host = buckets[bucket].host
                if Int(host.count) == end - start, URLBytes.equal(pool, host, bytes, at: start) { return bucket }
                bucket = Int(buckets[bucket].next)
            }
            return -1
        }

        /// Keeps in `best` the matching entry of highest precedence among `list`.
        @inline(__always)
        func consider(_ list: UnsafeBufferPointer<Int32>, _ url: URLView, _ best: inout Int, checkHost: Bool) {
            for id in list {
                let entry = entries[Int(id)]
                guard !checkHost || entry.filter.matchesHost(url, pool),
                      entry.filter.matchesBeyondHost(url, entry.allow, pool, tokens) else { continue }
                if best < 0 || FilterIndex.takesPrecedence(entry, Int(id), over: entries[best], best) { best = Int(id) }
            }
        }

        @inline(__always)
        func consider(_ span: CompiledFilter.Span, _ url: URLView, _ best: inout Int) {
            guard span.count > 0 else { return }
            consider(UnsafeBufferPointer(rebasing: ids[Int(span.start)..<Int(span.end)]), url, &best, checkHost: false)
        }
    }

    private func withTables<R>(_ body: (Tables) -> R) -> R {
        entries.withUnsafeBufferPointer { entries in
            pool.withUnsafeBufferPointer { pool in
                tokens.withUnsafeBufferPointer { tokens in
                    ids.withUnsafeBufferPointer { ids in
                        buckets.withUnsafeBufferPointer { buckets in
                            slots.withUnsafeBufferPointer { slots in
                                presence.withUnsafeBufferPointer { presence in
                                    body(Tables(entries: entries, pool: pool, tokens: tokens, ids: ids, buckets: buckets,
                                                slots: slots, slotShift: slotShift, presence: presence,
                                                presenceShift: presenceShift))
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Chrome's `FilterTakesPrecedence` (components/policy/core/browser/url_blocklist_manager.cc):
    /// the block filter `*` ranks lowest; then an exact-host filter beats a subdomain filter; then
    /// the longer host, the longer path, the more query tokens; then allow beats block; then the
    /// earlier entry.
    @inline(__always)
    static func takesPrecedence(_ lhs: Entry, _ lhsID: Int, over rhs: Entry, _ rhsID: Int) -> Bool {
        if lhs.isWildcardBlock != rhs.isWildcardBlock { return rhs.isWildcardBlock }
        let left = lhs.filter, right = rhs.filter
        if left.matchesSubdomains != right.matchesSubdomains { return !left.matchesSubdomains }
        if left.host.count != right.host.count { return left.host.count > right.host.count }
        if left.path.count != right.path.count { return left.path.count > right.path.count }
        if left.tokens.count != right.tokens.count { return left.tokens.count > right.tokens.count }
        if lhs.allow != rhs.allow { return lhs.allow }
        return lhsID < rhsID
    }

    /// The deciding entry for a web URL (http, https, ws, wss, ftp), or nil when none matches.
    func best(forWeb url: URLView) -> Int? {
        let layout = url.layout
        let bytes = url.bytes
        var best = withTables { tables -> Int in
            var best = -1
            if layout.hostKind == .domain {
                let capacity = layout.hostEnd - layout.hostStart + 1
                best = withUnsafeTemporaryAllocation(of: (start: Int, hash: UInt64).self, capacity: capacity) { suffixes in
                    var count = 0
                    var hash = FilterIndex.fnvOffset
                    var index = layout.hostEnd - 1
                    while index >= layout.hostStart {
                        hash = (hash ^ UInt64(bytes[index])) &* FilterIndex.fnvPrime
                        if index == layout.hostStart || bytes[index - 1] == URLBytes.dot {
                            suffixes[count] = (index, hash | 1)
                            count += 1
                        }
                        index -= 1
                    }
                    var found = -1
                    var level = count - 1
                    while level >= 0, found < 0 {
                        let suffix = suffixes[level]
                        let bucket = tables.bucket(suffix.hash, bytes, start: suffix.start, end: layout.hostEnd)
                        if bucket >= 0 {
                            if level == count - 1 { tables.consider(tables.buckets[bucket].exact, url, &found) }
                            tables.consider(tables.buckets[bucket].subdomain, url, &found)
                        }
                        level -= 1
                    }
                    return found
                }
            } else if layout.hostKind != .none {
                let hash = FilterIndex.hash(bytes, from: layout.hostStart, to: layout.hostEnd)
                let bucket = tables.bucket(hash, bytes, start: layout.hostStart, end: layout.hostEnd)
                if bucket >= 0 { tables.consider(tables.buckets[bucket].exact, url, &best) }
            }
            return best
        }
        if best < 0 {
            let schemeless = anyHost[0], sameScheme = anyHost[Int(layout.scheme.rawValue)]
            withTables { tables in
                schemeless.withUnsafeBufferPointer { tables.consider($0, url, &best, checkHost: false) }
                sameScheme.withUnsafeBufferPointer { tables.consider($0, url, &best, checkHost: false) }
            }
        }
        return best < 0 ? nil : best
    }

    /// The deciding entry among the filters that name the URL's scheme (`file:`, `data:`,
    /// `javascript:*`, …), or nil when none names it or none matches.
    func best(forScheme scheme: String, _ url: URLView) -> Int? {
        guard let list = byScheme[scheme] else { return nil }
        var best = -1
        withTables { tables in
            list.withUnsafeBufferPointer { tables.consider($0, url, &best, checkHost: true) }
        }
        return best < 0 ? nil : best
    }
}
