// A light scan of a keyfile's text for line numbers, which GKeyFile does not keep. Values always
// come from GKeyFile; this only says where a group header or a key was written.

struct KeyFileLines {
    /// The first and the last line that set one key. GKeyFile keeps the last value.
    struct KeyLines {
        var first: Int
        var last: Int
    }

    /// A key set again after its first line.
    struct Repeat {
        var group: String
        var key: String
        var line: Int
        var first: Int
    }

    /// Group headers in file order; a group written twice appears twice.
    private(set) var headers: [(name: String, line: Int)] = []
    private var firstHeaderLine: [String: Int] = [:]
    /// Every line that sets a key already set in its group, in file order.
    private(set) var repeats: [Repeat] = []
    /// The first line GKeyFile's grammar rejects, to locate a syntax error GLib's message does not quote.
    private(set) var firstMalformedLine: Int?
    /// Every line GKeyFile's grammar (as this scan reads it) rejects. GLib passes over some of them
    /// without an error (a key written `key[]=`), so the loader reports them.
    private(set) var malformedLines: [Int] = []
    /// The text, for finding a line GLib's message quotes (only when there is a syntax error).
    private let bytes: [UInt8]
    /// The lines of each key, by group then key: one lookup per key keeps a file of 100,000
    /// sites linear (a scan of every line per key made it quadratic).
    private var linesByKey: [String: [String: KeyLines]] = [:]

    /// Scans UTF-8 `bytes` as GKeyFile reads them: lines end at "\n" (a "\r" before it is
    /// dropped), leading spaces and tabs are ignored, `#` starts a comment. Works on bytes, as
    /// GKeyFile does: a `Character` walk over a file of 100,000 sites is slow.
    init(bytes: [UInt8]) {
        self.bytes = bytes
        var group: String?
        // The current group's keys, kept out of `linesByKey` while its lines are read so that a
        // key costs one hash, not two.
        var keys: [String: KeyLines] = [:]
        bytes.withUnsafeBufferPointer { text in
            Self.forEachLine(text) { number, start, end in
                var start = start
                while start < end, Self.isSpace(text[start]) { start += 1 }
                guard start < end, text[start] != UInt8(ascii: "#") else { return }
                if text[start] == UInt8(ascii: "[") {
                    // `[name]`, optionally followed by spaces; the name holds no brackets.
                    var close = end
                    while close > start, Self.isSpace(text[close - 1]) { close -= 1 }
                    let name = UnsafeBufferPointer(rebasing: text[(start + 1)..<max(start + 1, close - 1)])
                    // GLib's g_key_file_is_group_name: no brackets and no control characters.
                    guard close - start >= 3, text[close - 1] == UInt8(ascii: "]"),
                          !name.contains(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") || $0 < 0x20 || $0 == 0x7F }) else {
                        noteMalformed(number)
                        return
                    }
                    if let group { linesByKey[group] = keys }
                    let header = String(decoding: name, as: UTF8.self)
                    keys = linesByKey.removeValue(forKey: header) ?? [:]
                    group = header
                    headers.append((header, number))
                    if firstHeaderLine[header] == nil { firstHeaderLine[header] = number }
                } else if let equals = UnsafeBufferPointer(rebasing: text[start..<end]).firstIndex(of: UInt8(ascii: "=")) {
                    var keyEnd = start + equals
                    while keyEnd > start, Self.isSpace(text[keyEnd - 1]) { keyEnd -= 1 }
                    let name = UnsafeBufferPointer(rebasing: text[start..<keyEnd])
                    guard let group, Self.isKeyName(name) else { noteMalformed(number); return }
                    let key = String(decoding: name, as: UTF8.self)
                    if let earlier = keys.updateValue(KeyLines(first: number, last: number), forKey: key) {
                        keys[key]?.first = earlier.first
                        repeats.append(Repeat(group: group, key: key, line: number, first: earlier.first))
                    } else if keys.count == 1024 {
                        // A long group (a site list): make room for as many keys as the rest of
                        // the file has lines at the lines' length so far (at most 128 times as
                        // many, so odd files cannot ask for much), instead of doubling.
                        keys.reserveCapacity(keys.count + min((text.count - end) * number / max(end, 1), 127 * keys.count))
                    }
                } else {
                    noteMalformed(number)
                }
            }
        }
        if let group { linesByKey[group] = keys }
    }

    /// The line of the first `[group]` header: one lookup, so that a file of 160,000 groups is
    /// read in linear time (a scan of the headers per group took 30 s).
    func headerLine(of group: String) -> Int? {
        firstHeaderLine[group]
    }

    /// The lines of every key in `group`, by key.
    func keyLines(in group: String) -> [String: KeyLines] {
        linesByKey[group] ?? [:]
    }

    /// The first and last line that set `key` in `group`.
    func lines(of key: String, in group: String) -> KeyLines? {
        linesByKey[group]?[key]
    }

    /// The line of a syntax error: the line GLib's message quotes, else the first malformed line.
    func syntaxErrorLine(message: String) -> Int? {
        if let open = message.firstIndex(of: "“"), let close = message[open...].firstIndex(of: "”") {
            let quoted = message[message.index(after: open)..<close]
            var found: Int?
            bytes.withUnsafeBufferPointer { text in
                Self.forEachLine(text) { number, start, end in
                    guard found == nil else { return }
                    let line = String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
                    if line == quoted || line.trimmingKeyFileSpaces() == quoted { found = number }
                }
            }
            if let found { return found }
        }
        return firstMalformedLine
    }

    /// Calls `body` with each line's number and byte range, without its "\n" or the "\r" before it.
    private static func forEachLine(_ text: UnsafeBufferPointer<UInt8>, _ body: (_ number: Int, _ start: Int, _ end: Int) -> Void) {
        var start = 0
        var number = 0
        while start <= text.count {
            number += 1
            var end = start
            while end < text.count, text[end] != 0x0A { end += 1 }
            body(number, start, end > start && text[end - 1] == 0x0D ? end - 1 : end)
            start = end + 1
        }
    }

    private mutating func noteMalformed(_ line: Int) {
        if firstMalformedLine == nil { firstMalformedLine = line }
        malformedLines.append(line)
    }

    @inline(__always) private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// GKeyFile's rule: a non-empty key without `=`; brackets only as a trailing `[locale]`.
    private static func isKeyName(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let open = UInt8(ascii: "["), close = UInt8(ascii: "]")
        guard !key.isEmpty else { return false }
        guard let bracket = key.firstIndex(of: open) else { return !key.contains(close) }
        let locale = key[(bracket + 1)...]
        return bracket != 0 && locale.count > 1 && locale.last == close
            && !locale.dropLast().contains(open) && !locale.dropLast().contains(close)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs, the whitespace GKeyFile skips.
    /// Works on UTF-8 bytes: a 100,000-entry list value is trimmed without a Character walk.
    func trimmingKeyFileSpaces() -> String {
        let text = String(self)
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        // Most values have nothing to trim: then the text is returned as it is, without a copy.
        guard text.withUTF8Bytes({ bytes in (bytes.first.map(isSpace) ?? true) || (bytes.last.map(isSpace) ?? true) }) else { return text }
        guard let first = text.utf8.firstIndex(where: { !isSpace($0) }), let last = text.utf8.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(text[first...last])
    }
}
