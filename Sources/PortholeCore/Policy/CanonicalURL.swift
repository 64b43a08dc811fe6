// CanonicalURL: a URL in the one form that filters are matched against, built with GLib's GUri.
import CGLib

/// The schemes the engine tells apart. Web schemes have a host and a default port and are
/// matched the Chrome way; everything else is `other` and matched by name.
enum SchemeKind: UInt8, Sendable {
    case http = 1, https, ws, wss, ftp, file, other

    init(name: some Collection<UInt8>) {
        switch String(decoding: name, as: UTF8.self) {
        case "http": self = .http
        case "https": self = .https
        case "ws": self = .ws
        case "wss": self = .wss
        case "ftp": self = .ftp
        case "file": self = .file
        default: self = .other
        }
    }

    /// http, https, ws, wss, ftp: URLs with a host, matched by host, port, path and query.
    var isWeb: Bool { rawValue <= SchemeKind.ftp.rawValue }

    /// The port a URL of this scheme uses when it names none; -1 when the scheme has none.
    var defaultPort: Int {
        switch self {
        case .http, .ws: return 80
        case .https, .wss: return 443
        case .ftp: return 21
        case .file, .other: return -1
        }
    }
}

/// Where the parts of a canonical URL string sit, as byte offsets.
struct URLLayout: Sendable, Equatable {
    var scheme: SchemeKind
    /// Offset of the `:` after the scheme.
    var schemeEnd: Int
    var hostStart: Int
    var hostEnd: Int
    var hostKind: HostKind
    /// The effective port (explicit or the scheme's default), -1 when the URL has none.
    var port: Int
    var pathStart: Int
    var pathEnd: Int
    /// The query without its `?`; an empty range when the URL has no query.
    var queryStart: Int
    var queryEnd: Int
}

/// A borrowed view of a canonical URL's bytes; lives only inside a `withUTF8` closure.
struct URLView {
    let bytes: UnsafeBufferPointer<UInt8>
    let layout: URLLayout
}

/// Why a URL could not be canonicalised. Such a URL is always blocked.
public struct URLParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public let url: String
    public let reason: String

    public init(url: String, reason: String) {
        self.url = url
        self.reason = reason
    }

    public var description: String { tr("not a valid URL \"{url}\": {reason}").filled(["url": url, "reason": reason]) }
}

/// A URL reduced to what filters look at, so that one address has one spelling.
///
/// - scheme and host in lowercase; IDN hosts in punycode (`g_hostname_to_ascii` via GUri);
///   one trailing dot removed; numeric IPv4 forms (`0x7f.1`, `2130706433`, `127.1`,
///   `0177.0.0.1`) as dotted quads (the WHATWG IPv4 parser); IPv6 in brackets, WHATWG form;
/// - the default port (http 80, https 443, ws 80, wss 443, ftp 21) left out of `string` but
///   reported by `port`;
/// - path with dot segments removed and percent-encoding normalised: escapes of unreserved
///   characters decoded, hex digits in uppercase, spaces, quotes, `<>{}` and non-ASCII
///   escaped; an empty path becomes `/`;
/// - userinfo and fragment dropped; an empty query dropped;
/// - backslashes before the query read as slashes, and any run of slashes after `http:` read
///   as `//`, as browsers do, so `https:\\evil.example\@apple.com` is `https://evil.example/`.
///
/// Schemes other than http, https, ws, wss, ftp and file are opaque: `string` is the scheme
/// in lowercase, `:`, and the rest as written without its fragment; they have no host.
public struct CanonicalURL: Sendable, Equatable, CustomStringConvertible {
    /// The canonical spelling.
    public let string: String
    let layout: URLLayout

    /// Canonicalises `text`, or nil when it is not a usable URL.
    public init?(_ text: String) {
        guard let url = try? CanonicalURL.parse(text) else { return nil }
        self = url
    }

    init(string: String, layout: URLLayout) {
        self.string = string
        self.layout = layout
    }

    /// Canonicalises `text`. Already canonical http(s) URLs, the form WebKit hands over, are
    /// recognised without GLib; everything else goes through `g_uri_parse`.
    public static func parse(_ text: String) throws(URLParseError) -> CanonicalURL {
        var contiguous = text
        let fast: (URLLayout, end: Int, count: Int)? = contiguous.withUTF8 { bytes in
            fastLayout(bytes).map { ($0.0, $0.end, bytes.count) }
        }
        if let (layout, end, count) = fast {
            let string = end == count ? text : String(decoding: text.utf8.prefix(end), as: UTF8.self)
            return CanonicalURL(string: string, layout: layout)
        }
        return try parseWithGUri(text)
    }

    public var description: String { string }

    /// The scheme in lowercase, without `:`.
    public var scheme: String { slice(0, layout.schemeEnd) }
    /// The host: ASCII, lowercase, no trailing dot, IPv6 in brackets; empty when there is none.
    public var host: String { slice(layout.hostStart, layout.hostEnd) }
    /// The effective port: the explicit one or the scheme's default; nil for schemes without ports.
    public var port: Int? { layout.port >= 0 ? layout.port : nil }
    /// The path; for opaque schemes everything after `scheme:` up to the query.
    public var path: String { slice(layout.pathStart, layout.pathEnd) }
    /// The query without `?`; empty when there is none.
    public var query: String { slice(layout.queryStart, layout.queryEnd) }
    /// Whether the host is an IPv4 or IPv6 address.
    public var isIPAddress: Bool { layout.hostKind == .ipv4 || layout.hostKind == .ipv6 }

    var schemeKind: SchemeKind { layout.scheme }

    /// `scheme://host[:port]` for web URLs, the origin used for `blob:` rules.
    var origin: String? {
        guard layout.scheme.isWeb else { return nil }
        return slice(0, layout.pathStart)
    }

    func withView<R>(_ body: (URLView) -> R) -> R {
        var string = string
        return string.withUTF8 { body(URLView(bytes: $0, layout: layout)) }
    }

    private func slice(_ start: Int, _ end: Int) -> String {
        let utf8 = string.utf8
        let from = utf8.index(utf8.startIndex, offsetBy: start)
        let to = utf8.index(utf8.startIndex, offsetBy: end)
        return String(decoding: utf8[from..<to], as: UTF8.self)
    }
}

// MARK: - Fast path

extension CanonicalURL {
    /// The layout of `bytes` when they already are a canonical http or https URL (optionally
    /// followed by a fragment, which `end` excludes), else nil. Accepts only what the GUri path
    /// would return unchanged: lowercase scheme and host of `[a-z0-9_-]` labels whose last label
    /// does not start with a digit, or a dotted-quad IPv4 address; no userinfo, no default or invalid
    /// port, a path and query of canonical bytes and escapes without dot segments, no empty
    /// query. The test suite checks it against `parseWithGUri` on every URL it uses.
    static func fastLayout(_ bytes: UnsafeBufferPointer<UInt8>) -> (URLLayout, end: Int)? {
        let count = bytes.count
        guard count >= 8, bytes[0] == UInt8(ascii: "h"), bytes[1] == UInt8(ascii: "t"),
              bytes[2] == UInt8(ascii: "t"), bytes[3] == UInt8(ascii: "p") else { return nil }
        var index = 4
        var scheme = SchemeKind.http
        if bytes[index] == UInt8(ascii: "s") {
            scheme = .https
            index += 1
        }
        let schemeEnd = index
        guard bytes[index] == URLBytes.colon, bytes[index + 1] == URLBytes.slash,
              index + 2 < count, bytes[index + 2] == URLBytes.slash else { return nil }
        index += 3

        let hostStart = index
        var labelStart = index
        while index < count {
            let byte = bytes[index]
            if URLBytes.isHostLabelByte(byte) {
                index += 1
            } else if byte == URLBytes.dot {
                guard index > labelStart, index - labelStart <= 63 else { return nil }
                index += 1
                labelStart = index
            } else {
                break
            }
        }
        let hostEnd = index
        guard hostEnd > labelStart, hostEnd - labelStart <= 63, hostEnd - hostStart <= 253 else { return nil }
        var hostKind = HostKind.domain
        if URLBytes.isDigit(bytes[labelStart]) {
            // A last label starting with a digit may be an IPv4 form: only the dotted quad
            // itself is canonical.
            guard isDottedQuad(bytes, hostStart, hostEnd) else { return nil }
            hostKind = .ipv4
        }

        var port = scheme.defaultPort
        if index < count, bytes[index] == URLBytes.colon {
            index += 1
            let digitsStart = index
            var value = 0
            while index < count, URLBytes.isDigit(bytes[index]), index - digitsStart < 5 {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            guard index > digitsStart, bytes[digitsStart] != UInt8(ascii: "0"),
                  value <= 65535, value != scheme.defaultPort else { return nil }
            port = value
        }

        guard index < count, bytes[index] == URLBytes.slash else { return nil }
        let pathStart = index
        var segmentStart = index + 1
        index += 1
        while index < count {
            let byte = bytes[index]
            if byte == URLBytes.question || byte == URLBytes.hash { break }
            if byte == URLBytes.percent {
                guard URLBytes.isCanonicalEscape(bytes, at: index) else { return nil }
                index += 3
                continue
            }
            if byte == URLBytes.slash {
                if URLBytes.isDotSegment(bytes, segmentStart, index) { return nil }
                segmentStart = index + 1
            } else if !URLBytes.isCanonicalPathByte(byte) {
                return nil
            }
            index += 1
        }
        if URLBytes.isDotSegment(bytes, segmentStart, index) { return nil }
        let pathEnd = index

        var queryStart = index, queryEnd = index
        if index < count, bytes[index] == URLBytes.question {
            index += 1
            queryStart = index
            while index < count, bytes[index] != URLBytes.hash {
                let byte = bytes[index]
                if byte == URLBytes.percent {
                    guard URLBytes.isCanonicalEscape(bytes, at: index) else { return nil }
                    index += 3
                    continue
                }
                guard URLBytes.isCanonicalQueryByte(byte) else { return nil }
                index += 1
            }
            queryEnd = index
            guard queryEnd > queryStart else { return nil }
        }
        let layout = URLLayout(scheme: scheme, schemeEnd: schemeEnd, hostStart: hostStart, hostEnd: hostEnd,
                               hostKind: hostKind, port: port, pathStart: pathStart, pathEnd: pathEnd,
                               queryStart: queryStart, queryEnd: queryEnd)
        return (layout, index)
    }

    /// Four decimal numbers up to 255 without leading zeros: the canonical IPv4 form.
    private static func isDottedQuad(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var parts = 0
        var index = start
        while index < end {
            let partStart = index
            var value = 0
            while index < end, URLBytes.isDigit(bytes[index]), index - partStart < 3 {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            let length = index - partStart
            guard length > 0, value <= 255, length == 1 || bytes[partStart] != UInt8(ascii: "0") else { return false }
            parts += 1
            if index < end {
                guard bytes[index] == URLBytes.dot else { return false }
                index += 1
            }
        }
        return parts == 4
    }
}

// MARK: - GUri path

extension CanonicalURL {
    /// Canonicalises any URL with `g_uri_parse` (`G_URI_FLAGS_ENCODED | G_URI_FLAGS_PARSE_RELAXED`:
    /// GLib normalises escapes, removes dot segments, converts IDN hosts, and, like the WHATWG
    /// parser, takes the last `@` as the end of the userinfo). The WHATWG steps GLib lacks are done
    /// here: whitespace trimming, backslashes, slash runs, the IPv4 parser, IPv6 form, default ports.
    static func parseWithGUri(_ original: String) throws(URLParseError) -> CanonicalURL {
        do {
            return try canonicalizeWithGUri(original)
        } catch {
            throw URLParseError(url: original, reason: error.reason)
        }
    }

    private static func canonicalizeWithGUri(_ original: String) throws(ParseProblem) -> CanonicalURL {
        // WHATWG: strip leading and trailing C0 controls and spaces, remove tabs and newlines.
        var bytes = URLBytes.trimmed(original)
        bytes.removeAll { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }

        guard let first = bytes.first, URLBytes.isLetter(first),
              let colon = bytes.firstIndex(of: URLBytes.colon),
              bytes[1..<colon].allSatisfy(URLBytes.isSchemeByte) else {
            throw ParseProblem(reason: tr("it has no scheme (such as https:)"))
        }
        let schemeName = bytes[..<colon].map(URLBytes.lowercased)
        let scheme = SchemeKind(name: schemeName)
        var rest = Array(bytes[(colon + 1)...])

        guard scheme.isWeb || scheme == .file else {
            return opaque(scheme: schemeName, rest: rest)
        }
        // Special schemes: backslashes before the query or fragment are slashes.
        let end = rest.firstIndex { $0 == URLBytes.question || $0 == URLBytes.hash } ?? rest.count
        for index in 0..<end where rest[index] == URLBytes.backslash { rest[index] = URLBytes.slash }
        if scheme.isWeb {
            // Any number of slashes (none included) separates the scheme from the host.
            let slashes = rest.prefix { $0 == URLBytes.slash }.count
            rest.removeFirst(slashes)
            rest.insert(contentsOf: [URLBytes.slash, URLBytes.slash], at: 0)
        } else if !rest.starts(with: [URLBytes.slash, URLBytes.slash]) {
            // `file:/srv/x` and `file:srv/x` are `file:///srv/x`.
            let prefix = rest.first == URLBytes.slash ? [URLBytes.slash, URLBytes.slash] : [URLBytes.slash, URLBytes.slash, URLBytes.slash]
            rest.insert(contentsOf: prefix, at: 0)
        }
        let authorityHost = try checkedAuthorityHost(rest)
        let uriText = String(decoding: schemeName + [URLBytes.colon] + rest, as: UTF8.self)

        var error: UnsafeMutablePointer<GError>?
        let flags = GUriFlags(rawValue: G_URI_FLAGS_ENCODED.rawValue | G_URI_FLAGS_PARSE_RELAXED.rawValue)
        guard let uri = g_uri_parse(uriText, flags, &error) else {
            throw ParseProblem(reason: takeErrorMessage(error))
        }
        defer { g_uri_unref(uri) }

        var host: [UInt8] = []
        var hostKind = HostKind.none
        let rawHost = g_uri_get_host(uri).map { Array(String(cString: $0).utf8) } ?? []
        // GUri's relaxed parser ends a host early at characters the WHATWG parser keeps (`;`,
        // `,`, ...): decide only when both read the same host.
        if !authorityHost.contains(where: { $0 >= 0x80 }),
           rawHost.map(URLBytes.lowercased) != authorityHost.map(URLBytes.lowercased) {
            throw ParseProblem(reason: "host \"\(String(decoding: authorityHost, as: UTF8.self))\" is read differently by GLib and by web browsers")
        }
        if scheme.isWeb {
            guard !rawHost.isEmpty else { throw ParseProblem(reason: tr("it has no host")) }
            (host, hostKind) = try HostCanonicalizer.canonicalize(rawHost)
        } else if !rawHost.isEmpty, rawHost.map(URLBytes.lowercased) != Array("localhost".utf8) {
            (host, hostKind) = try HostCanonicalizer.canonicalize(rawHost)
        }
        // An international name maps to ASCII (`；` to `;`): what it becomes must be a DNS name too.
        if hostKind == .domain, let byte = host.first(where: { !URLBytes.isHostLabelByte($0) && $0 != URLBytes.dot }) {
            throw ParseProblem(reason: "host \"\(String(decoding: host, as: UTF8.self))\" contains the character \(HostCanonicalizer.describe(byte)), which a host name cannot hold")
        }

        var port = Int(g_uri_get_port(uri))
        if scheme == .file, port >= 0 { throw ParseProblem(reason: tr("a file: URL cannot have a port")) }
        let explicitPort = port >= 0 && port != scheme.defaultPort
        if port < 0 { port = scheme.defaultPort }

        var path = URLBytes.escaping(String(cString: g_uri_get_path(uri)).utf8, where: URLBytes.pathNeedsEscape)
        if path.isEmpty { path = [URLBytes.slash] }
        let query = g_uri_get_query(uri).map {
            URLBytes.escaping(String(cString: $0).utf8, where: URLBytes.queryNeedsEscape)
        } ?? []

        var out = schemeName
        let schemeEnd = out.count
        out += Array("://".utf8)
        let hostStart = out.count
        out += host
        let hostEnd = out.count
        if explicitPort { out += Array(":\(port)".utf8) }
        let pathStart = out.count
        out += path
        let pathEnd = out.count
        if !query.isEmpty { out.append(URLBytes.question) }
        let queryStart = out.count
        out += query
        let layout = URLLayout(scheme: scheme, schemeEnd: schemeEnd, hostStart: hostStart, hostEnd: hostEnd,
                               hostKind: hostKind, port: port, pathStart: pathStart, pathEnd: pathEnd,
                               queryStart: queryStart, queryEnd: out.count)
        return CanonicalURL(string: String(decoding: out, as: UTF8.self), layout: layout)
    }

    /// The host of `rest` (`//authority/path...`, backslashes already slashes) as the WHATWG URL
    /// standard's basic URL parser reads it: the authority runs to the first `/`, `?` or `#`, the
    /// host follows its last `@` and ends at a `:` outside brackets; IPv6 brackets removed.
    ///
    /// The host must hold only what a DNS name or an IP literal can: letters, digits, `-`, `_`,
    /// `.`, non-ASCII (an international name, checked after conversion), and in brackets hex
    /// digits, `:` and `.`. Everything else is refused, in particular the code points WHATWG
    /// allows in hosts but DNS does not (`;`, `,`, `!`, `$`, `&`, `'`, `(`, `)`, `*`, `+`, `=`,
    /// `~`, `"`, `` ` ``, `{`, `}`), where GUri's relaxed parser ends the host early, and its
    /// "forbidden host code points" (URL standard, section 3.2: U+0000, tab, LF, CR, space, `#`,
    /// `/`, `:`, `<`, `>`, `?`, `@`, `[`, `\`, `]`, `^`, `|`) and `%`, which it reads as escapes.
    /// The port must be digits.
    static func checkedAuthorityHost(_ rest: [UInt8]) throws(ParseProblem) -> [UInt8] {
        guard rest.starts(with: [URLBytes.slash, URLBytes.slash]) else { return [] }
        let authority = rest.dropFirst(2).prefix { $0 != URLBytes.slash && $0 != URLBytes.question && $0 != URLBytes.hash }
        let hostAndPort = authority.lastIndex(of: URLBytes.at).map { authority[($0 + 1)...] } ?? authority
        let host: ArraySlice<UInt8>
        let port: ArraySlice<UInt8>
        var allowed: (UInt8) -> Bool = { URLBytes.isHostLabelByte(URLBytes.lowercased($0)) || $0 == URLBytes.dot || $0 >= 0x80 }
        if hostAndPort.first == URLBytes.openBracket {
            let close = hostAndPort.firstIndex(of: URLBytes.closeBracket) ?? hostAndPort.endIndex
            host = hostAndPort[(hostAndPort.startIndex + 1)..<close]
            let after = close < hostAndPort.endIndex ? hostAndPort[(close + 1)...] : []
            guard close < hostAndPort.endIndex, after.isEmpty || after.first == URLBytes.colon else {
                throw ParseProblem(reason: "\"\(String(decoding: hostAndPort, as: UTF8.self))\" is not a valid IPv6 address")
            }
            port = after.dropFirst()
            allowed = { URLBytes.hexValue($0) != nil || $0 == URLBytes.colon || $0 == URLBytes.dot }
        } else {
            let colon = hostAndPort.firstIndex(of: URLBytes.colon) ?? hostAndPort.endIndex
            host = hostAndPort[..<colon]
            port = colon < hostAndPort.endIndex ? hostAndPort[(colon + 1)...] : []
        }
        // WHATWG percent-decodes a host before it checks it (as GUri does).
        let decoded = percentDecoded(host)
        if let byte = decoded.first(where: { !allowed($0) }) {
            throw ParseProblem(reason: "host \"\(String(decoding: decoded, as: UTF8.self))\" contains the character \(HostCanonicalizer.describe(byte)), which a host name cannot hold")
        }
        guard port.allSatisfy(URLBytes.isDigit) else {
            throw ParseProblem(reason: "port \"\(String(decoding: port, as: UTF8.self))\" is not a number")
        }
        return decoded
    }

    /// `%XX` escapes decoded; a `%` without two hex digits stays as it is.
    private static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == URLBytes.percent, index + 2 < bytes.endIndex,
               let high = URLBytes.hexValue(bytes[index + 1]), let low = URLBytes.hexValue(bytes[index + 2]) {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }

    /// `scheme:rest` without the fragment; the path runs to the first `?`.
    private static func opaque(scheme: [UInt8], rest: [UInt8]) -> CanonicalURL {
        let body = rest.prefix { $0 != URLBytes.hash }
        let out = scheme + [URLBytes.colon] + body
        let pathStart = scheme.count + 1
        let pathEnd = out[pathStart...].firstIndex(of: URLBytes.question) ?? out.count
        let queryStart = pathEnd < out.count ? pathEnd + 1 : pathEnd
        let layout = URLLayout(scheme: .other, schemeEnd: scheme.count, hostStart: pathStart, hostEnd: pathStart,
                               hostKind: .none, port: -1, pathStart: pathStart, pathEnd: pathEnd,
                               queryStart: queryStart, queryEnd: out.count)
        return CanonicalURL(string: String(decoding: out, as: UTF8.self), layout: layout)
    }
}
