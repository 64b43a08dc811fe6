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
    public var description: String { tr("invalid filter \"{filter}\": {reason}").filled(["filter": filter, "reason": reason]) }
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
    /// Where the parts sit in `bytes`; plain data, so matching counts no references.
    let compiled: CompiledFilter
    /// Scheme name, host, path and query, back to back.
    let bytes: [UInt8]
    let tokens: [CompiledFilter.Token]

    /// Parses `text`, or says why it is not a filter.
    public static func parse(_ text: String) throws(FilterError) -> URLFilter {
        let parts = try FilterParser.parts(text)
        var pool = FilterPool()
        // One allocation for the filter's bytes, not one per part appended.
        pool.bytes.reserveCapacity((parts.scheme?.count ?? 0) + parts.host.count + parts.path.count + parts.query.count)
        let compiled = pool.append(parts)
        return URLFilter(text: text, compiled: compiled, bytes: pool.bytes, tokens: pool.tokens)
    }

    /// The scheme the filter is limited to, lowercase; nil for any scheme.
    public var scheme: String? { compiled.scheme == 0 ? nil : string(compiled.schemeName) }
    /// The canonical host; empty for `*` and for filters without a host (`file:`, `data:`).
    public var host: String { string(compiled.host) }
    /// Whether subdomains of the host match too: bare domain names and `*`, not `.name` nor IPs.
    public var matchesSubdomains: Bool { compiled.matchesSubdomains }
    /// Whether the filter matches every host.
    public var matchesAnyHost: Bool { compiled.host.count == 0 }
    /// The port the filter is limited to; nil for any port.
    public var port: Int? { compiled.port == 0 ? nil : Int(compiled.port) }
    /// The canonical path prefix; empty for any path.
    public var path: String { string(compiled.path) }
    /// The canonical query tokens, `&`-separated; empty when there are none.
    public var query: String { string(compiled.query) }
    /// How many distinct query tokens the filter has (a precedence criterion).
    public var queryTokenCount: Int { tokens.count }

    public var description: String { text }

    public static func == (lhs: URLFilter, rhs: URLFilter) -> Bool { lhs.text == rhs.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// Whether this filter matches `url`. `asAllowFilter` selects the allow-list reading of query
    /// tokens (every occurrence of a key must match) over the block-list one (any occurrence).
    public func matches(_ url: CanonicalURL, asAllowFilter: Bool = false) -> Bool {
        url.withView { view in
            bytes.withUnsafeBufferPointer { pool in
                tokens.withUnsafeBufferPointer { tokens in
                    compiled.matchesHost(view, pool) && compiled.matchesBeyondHost(view, asAllowFilter, pool, tokens)
                }
            }
        }
    }

    private func string(_ span: CompiledFilter.Span) -> String {
        String(decoding: bytes[Int(span.start)..<Int(span.end)], as: UTF8.self)
    }
}

/// The canonical parts of a filter, as the parser finds them.
struct FilterParts {
    var scheme: [UInt8]?
    var host: [UInt8] = []
    var matchesSubdomains = true
    var port = 0
    var path: [UInt8] = []
    var query: [UInt8] = []
}

/// Bytes and query tokens of one or many filters, which `CompiledFilter` spans point into.
struct FilterPool {
    var bytes: [UInt8] = []
    var tokens: [CompiledFilter.Token] = []

    /// Appends `parts` and returns where they sit.
    mutating func append(_ parts: FilterParts) -> CompiledFilter {
        func append(_ part: [UInt8]) -> CompiledFilter.Span {
            defer { bytes += part }
            return CompiledFilter.Span(start: Int32(bytes.count), count: Int32(part.count))
        }
        let scheme = append(parts.scheme ?? [])
        let host = append(parts.host)
        let path = append(parts.path)
        let query = append(parts.query)
        let firstToken = tokens.count
        CompiledFilter.appendTokens(ofQuery: query, in: bytes, to: &tokens)
        return CompiledFilter(
            scheme: parts.scheme.map { SchemeKind(name: $0).rawValue } ?? 0, schemeName: scheme,
            host: host, matchesSubdomains: parts.matchesSubdomains, port: Int32(parts.port), path: path,
            query: query, tokens: CompiledFilter.Span(start: Int32(firstToken), count: Int32(tokens.count - firstToken)))
    }

    /// Appends a filter parsed on its own, moving its spans to this pool.
    mutating func append(_ filter: URLFilter) -> CompiledFilter {
        let offset = Int32(bytes.count)
        let compiled = filter.compiled.relocated(by: offset, tokenOffset: Int32(tokens.count))
        bytes += filter.bytes
        for token in filter.tokens { tokens.append(CompiledFilter.relocated(token, by: offset)) }
        return compiled
    }
}

/// The parts of a filter that matching reads, as spans of a byte pool: the filter's own bytes,
/// or the pool of a compiled policy holding all its filters.
struct CompiledFilter: Sendable {
    struct Span: Sendable {
        var start: Int32
        var count: Int32
        var end: Int32 { start + count }
    }

    /// One query token, its key and value spans in the same pool.
    struct Token: Sendable {
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
        var kind: Kind
        var key: Span
        var value: Span
    }

    /// 0 for any scheme, else a `SchemeKind` raw value; `other` schemes compare `schemeName`.
    var scheme: UInt8
    var schemeName: Span
    /// Empty for any host.
    var host: Span
    var matchesSubdomains: Bool
    /// 0 for any port.
    var port: Int32
    var path: Span
    var query: Span
    /// Into the token array that goes with the pool.
    var tokens: Span

    /// Appends the distinct tokens of the canonical query at `query`.
    static func appendTokens(ofQuery query: Span, in bytes: [UInt8], to pool: inout [Token]) {
        let first = pool.count
        bytes.withUnsafeBufferPointer { buffer in
            for element in QueryElements(buffer, from: Int(query.start), to: Int(query.end)) {
                let (start, equals, stop) = (element.start, element.equals, element.end)
                let token: Token
                func span(_ from: Int, _ to: Int) -> Span { Span(start: Int32(from), count: Int32(to - from)) }
                if equals >= 0 {
                    let key = span(start, equals)
                    if bytes[stop - 1] == URLBytes.star, stop - 1 > equals {
                        token = Token(kind: .keyValuePrefix, key: key, value: span(equals + 1, stop - 1))
                    } else if stop - 1 == equals {
                        token = Token(kind: .key, key: key, value: span(stop, stop))
                    } else {
                        token = Token(kind: .keyValue, key: key, value: span(equals + 1, stop))
                    }
                } else if bytes[stop - 1] == URLBytes.star {
                    token = Token(kind: .keyPrefix, key: span(start, stop - 1), value: span(stop, stop))
                } else {
                    token = Token(kind: .key, key: span(start, stop), value: span(stop, stop))
                }
                let duplicate = pool[first...].contains { other in
                    other.kind == token.kind && bytes[Int(other.key.start)..<Int(other.key.end)] == bytes[Int(token.key.start)..<Int(token.key.end)]
                        && bytes[Int(other.value.start)..<Int(other.value.end)] == bytes[Int(token.value.start)..<Int(token.value.end)]
                }
                if !duplicate { pool.append(token) }
            }
        }
    }

    /// The same filter with its spans moved by `offset` bytes and `tokenOffset` tokens, for a
    /// pool that holds many filters.
    func relocated(by offset: Int32, tokenOffset: Int32) -> CompiledFilter {
        var moved = self
        moved.schemeName.start += offset
        moved.host.start += offset
        moved.path.start += offset
        moved.query.start += offset
        moved.tokens.start += tokenOffset
        return moved
    }

    /// Token spans moved by `offset` bytes.
    static func relocated(_ token: Token, by offset: Int32) -> Token {
        var moved = token
        moved.key.start += offset
        moved.value.start += offset
        return moved
    }

    // MARK: Matching

    /// Whether the host matches: equal, or (for subdomain filters) a suffix after a dot.
    @inline(__always)
    func matchesHost(_ url: URLView, _ pool: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = Int(host.count)
        if count == 0 { return true }
        let layout = url.layout
        guard layout.hostKind != .none else { return false }
        let length = layout.hostEnd - layout.hostStart
        if length == count { return URLBytes.equal(pool, host, url.bytes, at: layout.hostStart) }
        guard matchesSubdomains, layout.hostKind == .domain, length > count,
              url.bytes[layout.hostEnd - count - 1] == URLBytes.dot else { return false }
        return URLBytes.equal(pool, host, url.bytes, at: layout.hostEnd - count)
    }

    /// Scheme, port, path and query; the host is checked by the caller (or by the index).
    @inline(__always)
    func matchesBeyondHost(_ url: URLView, _ asAllowFilter: Bool, _ pool: UnsafeBufferPointer<UInt8>,
                           _ tokenPool: UnsafeBufferPointer<Token>) -> Bool {
        let layout = url.layout
        if scheme != 0 {
            guard scheme == layout.scheme.rawValue else { return false }
            if scheme == SchemeKind.other.rawValue {
                guard layout.schemeEnd == Int(schemeName.count),
                      URLBytes.equal(pool, schemeName, url.bytes, at: 0) else { return false }
            }
        }
        if port != 0, layout.port != Int(port) { return false }
        if path.count != 0 {
            guard layout.pathEnd - layout.pathStart >= Int(path.count),
                  URLBytes.equal(pool, path, url.bytes, at: layout.pathStart) else { return false }
        }
        if tokens.count == 0 { return true }
        for index in Int(tokens.start)..<Int(tokens.end)
        where !Self.queryMatches(tokenPool[index], url, asAllowFilter, pool) {
            return false
        }
        return true
    }

    /// Chrome's URLQueryElementMatcherCondition: MATCH_ANY for block filters, MATCH_ALL (every
    /// occurrence of the key matches, and there is one) for allow filters; key prefixes and
    /// `key=*` only ask for presence.
    private static func queryMatches(_ token: Token, _ url: URLView, _ asAllowFilter: Bool,
                                     _ pool: UnsafeBufferPointer<UInt8>) -> Bool {
        let everyOccurrence = asAllowFilter && (token.kind == .key || token.kind == .keyValue
            || (token.kind == .keyValuePrefix && token.value.count > 0))
        let bytes = url.bytes
        var found = false
        for element in QueryElements(bytes, from: url.layout.queryStart, to: url.layout.queryEnd) {
            let (start, keyEnd, equals, stop) = (element.start, element.keyEnd, element.equals, element.end)
            if everyOccurrence {
                if keyEnd - start == Int(token.key.count), URLBytes.equal(pool, token.key, bytes, at: start) {
                    guard tokenMatches(token, start, keyEnd, equals, stop, bytes, pool) else { return false }
                    found = true
                }
            } else if tokenMatches(token, start, keyEnd, equals, stop, bytes, pool) {
                return true
            }
        }
        return found
    }

    @inline(__always)
    private static func tokenMatches(_ token: Token, _ start: Int, _ keyEnd: Int, _ equals: Int, _ stop: Int,
                                     _ bytes: UnsafeBufferPointer<UInt8>, _ pool: UnsafeBufferPointer<UInt8>) -> Bool {
        let keyLength = keyEnd - start
        let tokenKey = Int(token.key.count)
        switch token.kind {
        case .keyPrefix:
            return keyLength >= tokenKey && URLBytes.equal(pool, token.key, bytes, at: start)
        case .key:
            return keyLength == tokenKey && URLBytes.equal(pool, token.key, bytes, at: start)
                && (equals < 0 || equals + 1 == stop)
        case .keyValue:
            return equals >= 0 && keyLength == tokenKey && URLBytes.equal(pool, token.key, bytes, at: start)
                && stop - equals - 1 == Int(token.value.count) && URLBytes.equal(pool, token.value, bytes, at: equals + 1)
        case .keyValuePrefix:
            return equals >= 0 && keyLength == tokenKey && URLBytes.equal(pool, token.key, bytes, at: start)
                && stop - equals - 1 >= Int(token.value.count) && URLBytes.equal(pool, token.value, bytes, at: equals + 1)
        }
    }
}

/// The elements of a query between its `&`s (`key`, `key=value`; empty ones skipped), as byte
/// offsets into `bytes`: a filter's query and a URL's are split by this one tokenizer.
struct QueryElements: Sequence, IteratorProtocol {
    struct Element {
        let start: Int
        /// The first `=`, or -1.
        let equals: Int
        let end: Int
        var keyEnd: Int { equals < 0 ? end : equals }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var start: Int
    private let end: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        self.bytes = bytes
        self.start = start
        self.end = end
    }

    @inline(__always)
    mutating func next() -> Element? {
        while start < end {
            var stop = start
            var equals = -1
            while stop < end, bytes[stop] != URLBytes.ampersand {
                if equals < 0, bytes[stop] == URLBytes.equals { equals = stop }
                stop += 1
            }
            let element = Element(start: start, equals: equals, end: stop)
            start = stop + 1
            if element.end > element.start { return element }
        }
        return nil
    }
}
