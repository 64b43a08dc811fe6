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

    init(text: String) {
        // GKeyFile splits on "\n", drops a "\r" before it, and ignores leading whitespace.
        // Swift reads "\r\n" as one Character, so split on both spellings of a line end.
        texts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map(String.init)
        var group: String?
        for (index, raw) in texts.enumerated() {
            let number = index + 1
            let line = raw.drop(while: { $0 == " " || $0 == "\t" })
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                // `[name]`, optionally followed by spaces; the name holds no brackets.
                let header = line.trimmingKeyFileSpaces()
                let name = String(header.dropFirst().dropLast())
                guard header.hasSuffix("]"), !name.isEmpty, !name.contains("["), !name.contains("]") else {
                    noteMalformed(number)
                    continue
                }
                group = name
                headers.append((name, number))
            } else if let equals = line.firstIndex(of: "=") {
                let key = line[..<equals].trimmingKeyFileSpaces()
                guard let group, Self.isKeyName(key) else { noteMalformed(number); continue }
                entries.append(Entry(group: group, key: key, line: number))
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
        entries.filter { $0.group == group && $0.key == key }.map(\.line)
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
        guard let open = key.firstIndex(of: "[") else { return !key.contains("]") }
        let locale = key[key.index(after: open)...]
        return open != key.startIndex && locale.count > 1 && locale.last == "]"
            && !locale.dropLast().contains("[") && !locale.dropLast().contains("]")
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs, the whitespace GKeyFile skips.
    func trimmingKeyFileSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(self.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
