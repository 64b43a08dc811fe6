// A light scan of a keyfile's text for line numbers, which GKeyFile does not keep. Values always
// come from GKeyFile; this only says where a group header or a key was written.

struct KeyFileLines {
    struct Entry {
        var group: String
        var key: String
        var line: Int
    }

    /// Group headers in file order; a group written twice appears twice.
    private(set) var headers: [(name: String, line: Int)] = []
    /// `key=value` lines in file order, with the group they fall under.
    private(set) var entries: [Entry] = []
    /// The first line GKeyFile's grammar rejects, to locate a syntax error GLib's message does not quote.
    private(set) var firstMalformedLine: Int?
    /// Each line's text without its line ending, for finding a line GLib's message quotes.
    private let texts: [String]
    /// The lines of each key, by group then key: one lookup per key keeps a file of 100,000
    /// sites linear (a scan of `entries` per key made it quadratic).
    private var linesByKey: [String: [String: [Int]]] = [:]

    init(text: String) {
        // GKeyFile splits on "\n", drops a "\r" before it, and ignores leading whitespace.
        // Split on bytes: a Character walk over a file of 100,000 sites is slow.
        texts = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
            .map { line in String(decoding: line.last == 0x0D ? line.dropLast() : line[...], as: UTF8.self) }
        var group: String?
        for (index, raw) in texts.enumerated() {
            let number = index + 1
            let line = raw.drop(while: { $0 == " " || $0 == "\t" })
            if line.isEmpty || line.first == "#" { continue }
            if line.first == "[" {  // not hasPrefix: on a Substring that is Foundation's, a CFString search per line
                // `[name]`, optionally followed by spaces; the name holds no brackets.
                let header = line.trimmingKeyFileSpaces()
                let name = String(header.dropFirst().dropLast())
                guard header.hasSuffix("]"), !name.isEmpty, !name.contains(Character("[")), !name.contains(Character("]")) else {
                    noteMalformed(number)
                    continue
                }
                group = name
                headers.append((name, number))
            } else if let equals = line.firstIndex(of: "=") {
                let key = line[..<equals].trimmingKeyFileSpaces()
                guard let group, Self.isKeyName(key) else { noteMalformed(number); continue }
                entries.append(Entry(group: group, key: key, line: number))
                linesByKey[group, default: [:]][key, default: []].append(number)
            } else {
                noteMalformed(number)
            }
        }
    }

    /// The line of the first `[group]` header.
    func headerLine(of group: String) -> Int? {
        headers.first { $0.name == group }?.line
    }

    /// Every line that sets `key` in `group`, in file order. GKeyFile keeps the last value.
    func lines(of key: String, in group: String) -> [Int] {
        linesByKey[group]?[key] ?? []
    }

    /// The line of a syntax error: the line GLib's message quotes, else the first malformed line.
    func syntaxErrorLine(message: String) -> Int? {
        if let open = message.firstIndex(of: "“"), let close = message[open...].firstIndex(of: "”") {
            let quoted = message[message.index(after: open)..<close]
            if let index = texts.firstIndex(where: { $0 == quoted || $0.trimmingKeyFileSpaces() == quoted }) {
                return index + 1
            }
        }
        return firstMalformedLine
    }

    private mutating func noteMalformed(_ line: Int) {
        if firstMalformedLine == nil { firstMalformedLine = line }
    }

    /// GKeyFile's rule: a non-empty key without `=`; brackets only as a trailing `[locale]`.
    private static func isKeyName(_ key: String) -> Bool {
        guard !key.isEmpty else { return false }
        guard let open = key.firstIndex(of: "[") else { return !key.contains(Character("]")) }
        let locale = key[key.index(after: open)...]
        return open != key.startIndex && locale.count > 1 && locale.last == "]"
            && !locale.dropLast().contains(Character("[")) && !locale.dropLast().contains(Character("]"))
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs, the whitespace GKeyFile skips.
    /// Works on UTF-8 bytes: a 100,000-entry list value is trimmed without a Character walk.
    func trimmingKeyFileSpaces() -> String {
        let text = String(self)
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = text.utf8.firstIndex(where: { !isSpace($0) }), let last = text.utf8.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(text[first...last])
    }
}
