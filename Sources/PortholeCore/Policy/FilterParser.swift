// Reads filter text into a URLFilter, refusing with a reason whatever it cannot read exactly.

enum FilterParser {
    /// The canonical parts of `text`, or why it is not a filter.
    static func parts(_ text: String) throws(FilterError) -> FilterParts {
        do {
            return try parse(text)
        } catch {
            throw FilterError(filter: text, reason: error.reason)
        }
    }

    private static func parse(_ text: String) throws(ParseProblem) -> FilterParts {
        var bytes = URLBytes.trimmed(text)
        guard !bytes.isEmpty else { throw ParseProblem(reason: tr("the filter is empty")) }
        guard !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw ParseProblem(reason: tr("it contains a space or a control character"))
        }
        // The fragment is ignored, as in the Chrome format.
        if let hash = bytes.firstIndex(of: URLBytes.hash) { bytes.removeSubrange(hash...) }
        guard !bytes.isEmpty else { throw ParseProblem(reason: tr("the filter is empty")) }

        var scheme: [UInt8]?
        var rest = bytes[...]
        if let colon = schemeEnd(bytes) {
            let name = bytes[..<colon].map(URLBytes.lowercased)
            let shown = String(decoding: name, as: UTF8.self)
            let after = bytes[(colon + 1)...]
            if after.elementsEqual([URLBytes.star]) { return FilterParts(scheme: name) }
            if after.starts(with: [URLBytes.slash, URLBytes.slash]) {
                let body = after.dropFirst(2)
                if body.elementsEqual([URLBytes.star]) { return FilterParts(scheme: name) }
                let kind = SchemeKind(name: name)
                if kind == .file { return try file(body) }
                guard kind.isWeb else {
                    throw ParseProblem(reason: tr("a filter for the \"{scheme}:\" scheme can only be \"{scheme}:*\" or \"{scheme}://*\"").filled(["scheme": shown]))
                }
                scheme = name
                rest = body
            } else if shown == "data" {
                return try data(after)
            } else if !name.contains(URLBytes.dot), !(after.first.map(URLBytes.isDigit) ?? false) {
                // `localhost:8080` and `example.com:8080` are a host and a port; `about:blank` is not.
                throw ParseProblem(reason: tr("the scheme \"{scheme}:\" must be followed by \"//\" (only \"{scheme}:*\" may leave it out)").filled(["scheme": shown]))
            }
        }
        return try hostFilter(scheme: scheme, rest: rest)
    }

    /// The offset of the `:` ending a leading scheme, if the filter starts with one.
    private static func schemeEnd(_ bytes: [UInt8]) -> Int? {
        guard let first = bytes.first, URLBytes.isLetter(first),
              let colon = bytes.firstIndex(of: URLBytes.colon),
              bytes[1..<colon].allSatisfy(URLBytes.isSchemeByte) else { return nil }
        return colon
    }

    /// `file:///path` or `file://localhost/path`: local files whose path starts so.
    private static func file(_ body: ArraySlice<UInt8>) throws(ParseProblem) -> FilterParts {
        var path = body
        let localhost = Array("localhost".utf8)
        if path.starts(with: localhost), path.dropFirst(localhost.count).first == URLBytes.slash {
            path = path.dropFirst(localhost.count)
        }
        guard path.first == URLBytes.slash else {
            throw ParseProblem(reason: tr("a file: filter names a local path, such as \"file:///srv/kiosk/\""))
        }
        guard !path.contains(URLBytes.question) else { throw ParseProblem(reason: tr("a file: filter cannot have a query")) }
        let (canonicalPath, _) = try canonicalPathAndQuery(path: path, query: nil, scheme: "file")
        return FilterParts(scheme: Array("file".utf8), path: canonicalPath)
    }

    /// `data:` followed by the start of the content, matched as a prefix of it.
    private static func data(_ content: ArraySlice<UInt8>) throws(ParseProblem) -> FilterParts {
        guard !content.contains(URLBytes.question) else { throw ParseProblem(reason: tr("a data: filter cannot contain \"?\"")) }
        return FilterParts(scheme: Array("data".utf8), path: Array(content))
    }

    /// `[user@][.]host[:port][/path][?query]`, the scheme (if any) already taken off.
    private static func hostFilter(scheme: [UInt8]?, rest: ArraySlice<UInt8>) throws(ParseProblem) -> FilterParts {
        let authorityEnd = rest.firstIndex { $0 == URLBytes.slash || $0 == URLBytes.question } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        let remainder = rest[authorityEnd...]
        if let at = authority.lastIndex(of: URLBytes.at) { authority = authority[(at + 1)...] }
        var exact = false
        if authority.first == URLBytes.dot {
            exact = true
            authority = authority.dropFirst()
        }

        var hostPart = authority
        var portPart: ArraySlice<UInt8>?
        var bracketed = false
        if authority.first == URLBytes.openBracket {
            guard let close = authority.firstIndex(of: URLBytes.closeBracket) else {
                throw ParseProblem(reason: tr("the IPv6 address has no closing \"]\""))
            }
            bracketed = true
            hostPart = authority[(authority.startIndex + 1)..<close]
            let after = authority[(close + 1)...]
            if after.first == URLBytes.colon {
                portPart = after.dropFirst()
            } else if !after.isEmpty {
                throw ParseProblem(reason: tr("unexpected text after the IPv6 address"))
            }
        } else if let colon = authority.lastIndex(of: URLBytes.colon) {
            hostPart = authority[..<colon]
            portPart = authority[(colon + 1)...]
        }
        guard !hostPart.isEmpty else { throw ParseProblem(reason: tr("the host is missing")) }

        var port = 0
        if let portPart {
            let shown = String(decoding: portPart, as: UTF8.self)
            guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy(URLBytes.isDigit),
                  let value = Int(shown), (1...65535).contains(value) else {
                throw ParseProblem(reason: tr("port \"{port}\" is not a number from 1 to 65535").filled(["port": shown]))
            }
            port = value
        }

        var host: [UInt8] = []
        var subdomains = true
        if hostPart.elementsEqual([URLBytes.star]) {
            guard !exact else { throw ParseProblem(reason: tr("\".*\" is not a host; write \"*\" for any host")) }
        } else if !bracketed, hostPart.contains(URLBytes.colon) {
            let shown = String(decoding: hostPart, as: UTF8.self)
            throw ParseProblem(reason: tr("host \"{host}\" contains the character \":\"").filled(["host": shown]))
        } else if hostPart.contains(URLBytes.star) {
            throw ParseProblem(reason: tr("\"*\" can only stand alone for any host; \"example.com\" already matches its subdomains"))
        } else if bracketed {
            host = try HostCanonicalizer.ipv6(Array(hostPart))
            subdomains = false
        } else {
            let kind: HostKind
            (host, kind) = try HostCanonicalizer.canonicalize(Array(hostPart))
            if kind == .domain {
                try checkLabels(host)
                subdomains = !exact
            } else {
                subdomains = false
            }
        }

        var pathPart: ArraySlice<UInt8> = []
        var queryPart: ArraySlice<UInt8>?
        if remainder.first == URLBytes.slash {
            let question = remainder.firstIndex(of: URLBytes.question) ?? remainder.endIndex
            pathPart = remainder[..<question]
            if question < remainder.endIndex { queryPart = remainder[(question + 1)...] }
        } else if remainder.first == URLBytes.question {
            queryPart = remainder.dropFirst()
        }
        let (path, query) = try canonicalPathAndQuery(path: pathPart, query: queryPart, scheme: "http")
        return FilterParts(scheme: scheme, host: host, matchesSubdomains: subdomains, port: port, path: path, query: query)
    }

    /// Domain filters are stricter than URL hosts: letters, digits, `-` and `_` in labels of at
    /// most 63 bytes, 253 in all. A filter that could never match a real host is a mistake.
    private static func checkLabels(_ host: [UInt8]) throws(ParseProblem) {
        func problem(_ what: String) -> ParseProblem {
            ParseProblem(reason: what.filled(["host": String(decoding: host, as: UTF8.self)]))
        }
        guard host.count <= 253 else { throw problem(tr("host \"{host}\" is longer than 253 characters")) }
        var labelStart = 0
        for index in 0...host.count {
            if index == host.count || host[index] == URLBytes.dot {
                guard index - labelStart <= 63 else { throw problem(tr("host \"{host}\" has a label longer than 63 characters")) }
                labelStart = index + 1
            } else if !URLBytes.isHostLabelByte(host[index]) {
                throw problem(tr("host \"{host}\" may only hold letters, digits, \"-\" and \"_\""))
            }
        }
    }

    /// Path and query in the canonical form URLs have, so that they compare byte for byte.
    /// Already canonical text (the usual case) is taken as it is; anything else goes through
    /// the same GUri canonicalisation as URLs. Dot segments are refused: canonical URLs never
    /// contain them, and resolving them would make the filter wider than written.
    private static func canonicalPathAndQuery(path: ArraySlice<UInt8>, query: ArraySlice<UInt8>?,
                                              scheme: String) throws(ParseProblem) -> ([UInt8], [UInt8]) {
        if hasDotSegment(path) {
            throw ParseProblem(reason: tr("the path has a \".\" or \"..\" segment"))
        }
        let queryBytes = query.map(Array.init) ?? []
        if URLBytes.isCanonicalPath(path), URLBytes.isCanonicalQuery(queryBytes) {
            return (Array(path), queryBytes)
        }
        var probe = Array("\(scheme)://h".utf8) + (path.isEmpty ? [URLBytes.slash] : Array(path))
        if !queryBytes.isEmpty { probe += [URLBytes.question] + queryBytes }
        let url: CanonicalURL
        do {
            url = try CanonicalURL.parseWithGUri(String(decoding: probe, as: UTF8.self))
        } catch {
            throw ParseProblem(reason: tr("the path or query cannot be read: {reason}").filled(["reason": error.reason]))
        }
        return url.withView { view in
            let layout = view.layout
            let canonicalPath = path.isEmpty ? [] : Array(view.bytes[layout.pathStart..<layout.pathEnd])
            return (canonicalPath, Array(view.bytes[layout.queryStart..<layout.queryEnd]))
        }
    }

    /// Whether a segment is `.` or `..`, also when spelled with `%2e`.
    private static func hasDotSegment(_ path: ArraySlice<UInt8>) -> Bool {
        guard path.contains(where: { $0 == URLBytes.dot || $0 == URLBytes.percent }) else { return false }
        for segment in path.split(separator: URLBytes.slash, omittingEmptySubsequences: false) {
            var dots = 0
            var index = segment.startIndex
            while index < segment.endIndex {
                if segment[index] == URLBytes.dot {
                    index += 1
                } else if segment[index] == URLBytes.percent, segment.endIndex - index >= 3,
                          segment[index + 1] == UInt8(ascii: "2"), segment[index + 2] | 0x20 == UInt8(ascii: "e") {
                    index += 3
                } else {
                    break
                }
                dots += 1
            }
            if index == segment.endIndex, dots == 1 || dots == 2 { return true }
        }
        return false
    }
}
