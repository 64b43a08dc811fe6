// URLFilter: one entry of an allow or block list in Chrome's URLBlocklist/URLAllowlist format.

/// A filter that could not be read, and why. The filter is left out of the policy: it never
/// stands in for something wider.
public struct FilterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The filter as written.
    public let filter: String
    /// Why it was refused, as a sentence fragment ("port \"0\" is not a number from 1 to 65535").
    public let reason: String

    public init(filter: String, reason: String) {
        self.filter = filter
        self.reason = reason
    }

    /// `invalid filter "x": reason`.
    public var description: String { "invalid filter \"\(filter)\": \(reason)" }
}

/// One filter in the format of Chrome's URLBlocklist and URLAllowlist policies,
/// `[scheme://][.]host[:port][/path][?query]`
/// (https://www.chromium.org/administrators/url-blocklist-filter-format):
///
/// - `example.com` matches that host and its subdomains, on label boundaries only
///   (`www.example.com`, not `evilexample.com` nor `example.com.evil.example`);
///   `.example.com` matches exactly that host; `*` matches any host;
/// - IP addresses (`192.168.1.2`, `[::1]`) match exactly, never as a suffix; hosts are
///   canonicalised like URLs, so `0x7f.1` is `127.0.0.1` and `bücher.de` is `xn--bcher-kva.de`;
/// - the scheme is optional and case-insensitive; `scheme:*` and `scheme://*` match every URL of
///   a scheme, custom ones included; other schemes than http, https, ws, wss, ftp, file and data
///   only have those two forms;
/// - a port from 1 to 65535 must equal the URL's effective port (`example.com:443` matches
///   `https://example.com/`);
/// - the path is a case-sensitive prefix of the URL's canonical path (`example.com/stuff`
///   matches `/stuff`, `/stuff/x` and `/stuffing`);
/// - the query is a set of `&`-separated tokens, order-free: `key=value`, `key=value*`
///   (value prefix), `key` and `key*` (key prefix). In a block filter one matching occurrence
///   suffices; in an allow filter every occurrence of the key must match;
/// - userinfo (`user:pass@`) and the fragment (`#…`) are ignored; one trailing dot of the host
///   is ignored;
/// - `file:///srv/kiosk/` matches local files under that path; `data:text/plain,` matches
///   data URLs whose content starts so.
///
/// Anything else is refused with a `FilterError` rather than guessed at: an empty filter,
/// whitespace, a port outside 1–65535, `*` inside a host (`*.example.com`), a host that is not
/// a valid name or address, `.` or `..` path segments.
public struct URLFilter: Sendable, Hashable, CustomStringConvertible {
    /// The filter as written.
    public let text: String

    /// Lowercase scheme; nil matches every scheme.
    let schemeName: [UInt8]?
    let schemeKind: SchemeKind?
    /// Canonical host (IPv6 in brackets); empty matches every host.
    let hostBytes: [UInt8]
    let hostKind: HostKind
    /// Whether subdomains of the host match too: bare domain names and `*`, not `.name` nor IPs.
    public let matchesSubdomains: Bool
    /// The port to match, 0 for any.
    let portNumber: Int
    /// Canonical path prefix; empty matches every path.
    let pathBytes: [UInt8]
    let queryBytes: [UInt8]
    let queryTokens: [QueryToken]

    /// Parses `text`, or says why it is not a filter.
    public static func parse(_ text: String) throws(FilterError) -> URLFilter {
        do {
            return try FilterParser.parse(text)
        } catch {
            throw FilterError(filter: text, reason: error.reason)
        }
    }

    init(text: String, scheme: [UInt8]?, host: [UInt8], hostKind: HostKind, matchesSubdomains: Bool,
         port: Int, path: [UInt8], query: [UInt8], queryTokens: [QueryToken]) {
        self.text = text
        self.schemeName = scheme
        self.schemeKind = scheme.map { SchemeKind(name: $0) }
        self.hostBytes = host
        self.hostKind = hostKind
        self.matchesSubdomains = matchesSubdomains
        self.portNumber = port
        self.pathBytes = path
        self.queryBytes = query
        self.queryTokens = queryTokens
    }

    /// The scheme the filter is limited to, lowercase; nil for any scheme.
    public var scheme: String? { schemeName.map { String(decoding: $0, as: UTF8.self) } }
    /// The canonical host; empty for `*` and for filters without a host (`file:`, `data:`).
    public var host: String { String(decoding: hostBytes, as: UTF8.self) }
    /// Whether the filter matches every host.
    public var matchesAnyHost: Bool { hostBytes.isEmpty }
    /// The port the filter is limited to; nil for any port.
    public var port: Int? { portNumber == 0 ? nil : portNumber }
    /// The canonical path prefix; empty for any path.
    public var path: String { String(decoding: pathBytes, as: UTF8.self) }
    /// The canonical query tokens, `&`-separated; empty when there are none.
    public var query: String { String(decoding: queryBytes, as: UTF8.self) }
    /// How many distinct query tokens the filter has (a precedence criterion).
    public var queryTokenCount: Int { queryTokens.count }

    public var description: String { text }

    public static func == (lhs: URLFilter, rhs: URLFilter) -> Bool { lhs.text == rhs.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// Whether this filter matches `url`. `asAllowFilter` selects the allow-list reading of query
    /// tokens (every occurrence of a key must match) over the block-list one (any occurrence).
    public func matches(_ url: CanonicalURL, asAllowFilter: Bool = false) -> Bool {
        url.withView { matchesHost($0) && matchesBeyondHost($0, asAllowFilter: asAllowFilter) }
    }

    // MARK: Matching

    /// Whether the host matches: equal, or (for subdomain filters) a suffix after a dot.
    @inline(__always)
    func matchesHost(_ url: URLView) -> Bool {
        if hostBytes.isEmpty { return true }
        let layout = url.layout
        guard layout.hostKind != .none else { return false }
        let length = layout.hostEnd - layout.hostStart
        let count = hostBytes.count
        if length == count { return URLBytes.equal(hostBytes, url.bytes, at: layout.hostStart) }
        guard matchesSubdomains, layout.hostKind == .domain, length > count,
              url.bytes[layout.hostEnd - count - 1] == URLBytes.dot else { return false }
        return URLBytes.equal(hostBytes, url.bytes, at: layout.hostEnd - count)
    }

    /// Scheme, port, path and query; the host is checked by the caller (or by the index).
    @inline(__always)
    func matchesBeyondHost(_ url: URLView, asAllowFilter: Bool) -> Bool {
        let layout = url.layout
        if let schemeKind {
            guard schemeKind == layout.scheme else { return false }
            if schemeKind == .other, let schemeName {
                guard layout.schemeEnd == schemeName.count, URLBytes.equal(schemeName, url.bytes, at: 0) else { return false }
            }
        }
        if portNumber != 0, layout.port != portNumber { return false }
        if !pathBytes.isEmpty {
            guard layout.pathEnd - layout.pathStart >= pathBytes.count,
                  URLBytes.equal(pathBytes, url.bytes, at: layout.pathStart) else { return false }
        }
        if !queryTokens.isEmpty { return matchesQuery(url, asAllowFilter: asAllowFilter) }
        return true
    }

    private func matchesQuery(_ url: URLView, asAllowFilter: Bool) -> Bool {
        for token in queryTokens {
            if asAllowFilter && token.mustMatchEveryOccurrence {
                var found = false
                var mismatch = false
                forEachQueryToken(url) { key, value in
                    guard token.hasKey(key, url.bytes) else { return true }
                    found = true
                    mismatch = !token.matches(key: key, value: value, url.bytes)
                    return !mismatch
                }
                if mismatch || !found { return false }
            } else {
                var found = false
                forEachQueryToken(url) { key, value in
                    found = token.matches(key: key, value: value, url.bytes)
                    return !found
                }
                if !found { return false }
            }
        }
        return true
    }

    /// Calls `body` with each `&`-separated token of the URL's query as byte ranges (the value
    /// is nil when the token has no `=`) until it returns false.
    @inline(__always)
    private func forEachQueryToken(_ url: URLView, _ body: (Range<Int>, Range<Int>?) -> Bool) {
        let bytes = url.bytes
        var start = url.layout.queryStart
        let end = url.layout.queryEnd
        while start < end {
            var stop = start
            var equals = -1
            while stop < end, bytes[stop] != URLBytes.ampersand {
                if equals < 0, bytes[stop] == URLBytes.equals { equals = stop }
                stop += 1
            }
            if stop > start {
                let keep = equals < 0 ? body(start..<stop, nil) : body(start..<equals, (equals + 1)..<stop)
                if !keep { return }
            }
            start = stop + 1
        }
    }
}

/// One query token of a filter.
struct QueryToken: Sendable, Hashable {
    enum Kind: UInt8, Sendable {
        /// `key` (or `key=`): the URL token is the bare key.
        case key
        /// `key*`: a URL token whose key starts with this, any value.
        case keyPrefix
        /// `key=value`.
        case keyValue
        /// `key=value*`: value prefix; `key=*` is the key with any value.
        case keyValuePrefix
    }

    let kind: Kind
    let key: [UInt8]
    let value: [UInt8]

    /// Chrome's MATCH_ALL for allow filters: every occurrence of the key must match. Key
    /// prefixes and `key=*` only ask for presence, which one occurrence settles.
    var mustMatchEveryOccurrence: Bool {
        switch kind {
        case .key, .keyValue: return true
        case .keyPrefix: return false
        case .keyValuePrefix: return !value.isEmpty
        }
    }

    func hasKey(_ key: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        key.count == self.key.count && URLBytes.equal(self.key, bytes, at: key.lowerBound)
    }

    func matches(key: Range<Int>, value: Range<Int>?, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch kind {
        case .keyPrefix:
            return key.count >= self.key.count && URLBytes.equal(self.key, bytes, at: key.lowerBound)
        case .key:
            return hasKey(key, bytes) && (value?.isEmpty ?? true)
        case .keyValue:
            guard hasKey(key, bytes), let value else { return false }
            return value.count == self.value.count && URLBytes.equal(self.value, bytes, at: value.lowerBound)
        case .keyValuePrefix:
            guard hasKey(key, bytes), let value else { return false }
            return value.count >= self.value.count && URLBytes.equal(self.value, bytes, at: value.lowerBound)
        }
    }
}
