// A strict JSON reader for Chrome's policy files, with the two extensions Chromium's policy loader
// accepts (comments, trailing commas) and its nesting limit, and a byte offset on every value.

/// One JSON value and the byte offset where it starts in the text.
struct JSONNode: Sendable {
    indirect enum Value: Sendable {
        /// Members in file order; a name written twice appears twice (the reader keeps them all).
        case object([(name: String, nameOffset: Int, value: JSONNode)])
        case array([JSONNode])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    var value: Value
    var offset: Int

    /// A word for the value's type in messages.
    var typeName: String {
        switch value {
        case .object: "object"
        case .array: "list"
        case .string: "string"
        case .number: "number"
        case .bool: "boolean"
        case .null: "null"
        }
    }
}

/// Why a text is not JSON, and the byte offset where the reader stopped.
struct JSONSyntaxError: Error, Equatable {
    var offset: Int
    var message: String
}

/// Reads JSON as Chromium's `base::JSONReader` does for policy files
/// (`components/policy/core/common/config_dir_policy_loader.cc` reads them with
/// `JSON_ALLOW_TRAILING_COMMAS`; `//` and `/* */` comments are skipped as whitespace):
/// - at most `maxDepth` - 1 nested lists and objects (`base/json/json_common.h`:
///   `kAbsoluteMaxDepth = 200`, and a container at depth 200 is "too much nesting"); the reader
///   recurses, so this bound is also what keeps a hostile file from overflowing the stack;
/// - strings in double quotes only, no raw control characters, valid escapes and UTF-8, and no
///   `\u0000`: a NUL cuts a C string short, so `"evil.example\u0000.school.example"` would
///   be read by one part of the browser as one host and by another as another;
/// - numbers as RFC 8259 writes them, finite (`1e999` is refused, as Chromium refuses it);
/// - nothing but whitespace and comments after the value.
/// JSON-GLib cannot skip comments or trailing commas and has no depth limit (a file of 100,000
/// `[` crashed Porthole), hence this reader.
struct JSONReader {
    static let maxDepth = 200

    private let text: UnsafeBufferPointer<UInt8>
    private var at = 0
    private var depth = 0

    /// Parses `bytes` (a UTF-8 byte order mark at the start is skipped, as Chromium skips it).
    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        let result: Result<JSONNode, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(text: buffer)
            if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { reader.at = 3 }
            do throws(JSONSyntaxError) {
                try reader.skipSpace()
                let root = try reader.value()
                try reader.skipSpace()
                if reader.at < buffer.count { throw reader.error(tr("unexpected data after the end of the JSON value")) }
                return .success(root)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private init(text: UnsafeBufferPointer<UInt8>) { self.text = text }

    private func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset ?? at, message: message)
    }

    private var current: UInt8? { at < text.count ? text[at] : nil }

    /// Spaces, tabs, line breaks and comments.
    private mutating func skipSpace() throws(JSONSyntaxError) {
        while let byte = current {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                at += 1
            case UInt8(ascii: "/") where at + 1 < text.count && text[at + 1] == UInt8(ascii: "/"):
                while let next = current, next != 0x0A { at += 1 }
            case UInt8(ascii: "/") where at + 1 < text.count && text[at + 1] == UInt8(ascii: "*"):
                let start = at
                at += 2
                while at + 1 < text.count, !(text[at] == UInt8(ascii: "*") && text[at + 1] == UInt8(ascii: "/")) { at += 1 }
                guard at + 1 < text.count else { throw error(tr("a /* comment is not closed"), at: start) }
                at += 2
            default:
                return
            }
        }
    }

    private mutating func value() throws(JSONSyntaxError) -> JSONNode {
        let start = at
        guard let byte = current else { throw error(tr("unexpected end of the file")) }
        switch byte {
        case UInt8(ascii: "{"): return JSONNode(value: try object(), offset: start)
        case UInt8(ascii: "["): return JSONNode(value: try array(), offset: start)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try string()), offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONNode(value: .number(try number()), offset: start)
        case UInt8(ascii: "t"): try literal("true"); return JSONNode(value: .bool(true), offset: start)
        case UInt8(ascii: "f"): try literal("false"); return JSONNode(value: .bool(false), offset: start)
        case UInt8(ascii: "n"): try literal("null"); return JSONNode(value: .null, offset: start)
        case UInt8(ascii: "'"): throw error(tr("strings are written in double quotes in JSON, not single quotes"))
        default: throw error(tr("unexpected character"))
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth >= Self.maxDepth { throw error(tr("nested too deeply (Chrome reads at most 199 levels)")) }
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONNode.Value {
        try enter()
        defer { depth -= 1 }
        at += 1
        var members: [(name: String, nameOffset: Int, value: JSONNode)] = []
        try skipSpace()
        if current == UInt8(ascii: "}") { at += 1; return .object(members) }
        while true {
            guard current == UInt8(ascii: "\"") else {
                throw error(current == UInt8(ascii: "'") ? tr("strings are written in double quotes in JSON, not single quotes")
                                                         : tr("expected a name in double quotes"))
            }
            let nameOffset = at
            let name = try string()
            try skipSpace()
            guard current == UInt8(ascii: ":") else { throw error(tr("expected ':' after the name")) }
            at += 1
            try skipSpace()
            members.append((name, nameOffset, try value()))
            try skipSpace()
            switch current {
            case UInt8(ascii: ","):
                at += 1
                try skipSpace()
                // A trailing comma, as Chromium's policy loader allows.
                if current == UInt8(ascii: "}") { at += 1; return .object(members) }
            case UInt8(ascii: "}"):
                at += 1
                return .object(members)
            default:
                throw error(tr("expected ',' or '}'"))
            }
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONNode.Value {
        try enter()
        defer { depth -= 1 }
        at += 1
        var elements: [JSONNode] = []
        try skipSpace()
        if current == UInt8(ascii: "]") { at += 1; return .array(elements) }
        while true {
            elements.append(try value())
            try skipSpace()
            switch current {
            case UInt8(ascii: ","):
                at += 1
                try skipSpace()
                if current == UInt8(ascii: "]") { at += 1; return .array(elements) }
            case UInt8(ascii: "]"):
                at += 1
                return .array(elements)
            default:
                throw error(tr("expected ',' or ']'"))
            }
        }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let letters = Array(word.utf8)
        let count = letters.count
        let matches = at + count <= text.count && (0..<count).allSatisfy { text[at + $0] == letters[$0] }
        guard matches else { throw error(tr("unexpected character")) }
        at += count
    }

    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = at
        func digits() -> Int {
            let first = at
            while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { at += 1 }
            return at - first
        }
        if current == UInt8(ascii: "-") { at += 1 }
        if current == UInt8(ascii: "0") {
            at += 1
        } else if digits() == 0 {
            throw error(tr("not a number"), at: start)
        }
        if current == UInt8(ascii: ".") {
            at += 1
            guard digits() > 0 else { throw error(tr("not a number"), at: start) }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            at += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { at += 1 }
            guard digits() > 0 else { throw error(tr("not a number"), at: start) }
        }
        let literal = String(decoding: UnsafeBufferPointer(rebasing: text[start..<at]), as: UTF8.self)
        guard let value = Double(literal), value.isFinite else { throw error(tr("number out of range"), at: start) }
        return value
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        let start = at
        at += 1
        var bytes: [UInt8] = []
        var runStart = at
        while true {
            guard let byte = current else { throw error(tr("a string is not closed"), at: start) }
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { throw error(tr("a control character inside a string must be written as an escape")) }
            if byte != UInt8(ascii: "\\") { at += 1; continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<at]))
            let escape = at
            at += 1
            guard let code = current else { throw error(tr("a string is not closed"), at: start) }
            at += 1
            switch code {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(code)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(escape)
                if (0xD800...0xDBFF).contains(scalar) {
                    guard at + 1 < text.count, text[at] == UInt8(ascii: "\\"), text[at + 1] == UInt8(ascii: "u") else {
                        throw error(tr("invalid \\u escape: half of a surrogate pair"), at: escape)
                    }
                    at += 2
                    let low = try hex4(escape)
                    guard (0xDC00...0xDFFF).contains(low) else { throw error(tr("invalid \\u escape: half of a surrogate pair"), at: escape) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error(tr("invalid \\u escape: half of a surrogate pair"), at: escape)
                }
                guard scalar != 0 else { throw error(tr("\\u0000 (NUL) is not allowed in a string: it would cut the text short"), at: escape) }
                bytes.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
            default:
                throw error(tr("invalid escape in a string"), at: escape)
            }
            runStart = at
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<at]))
        at += 1
        guard let string = String(validating: bytes, as: UTF8.self) else { throw error(tr("not UTF-8 text"), at: start) }
        return string
    }

    private mutating func hex4(_ escape: Int) throws(JSONSyntaxError) -> UInt32 {
        guard at + 4 <= text.count else { throw error(tr("invalid \\u escape"), at: escape) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = text[at]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(tr("invalid \\u escape"), at: escape)
            }
            value = value << 4 | UInt32(digit)
            at += 1
        }
        return value
    }
}

/// Line and column (both from 1; the column in characters, as an editor counts them) of byte
/// offsets in one text: a binary search over the line starts, then a count of characters from
/// the last position asked when it is earlier on the same line. Asked in file order (as
/// problems are found), a whole minified file of 100,000 entries costs one pass.
struct TextPositions {
    private let lineStarts: [Int]
    private let bytes: [UInt8]
    private var last = (offset: 0, line: 1, column: 1)

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == 0x0A { starts.append(offset + 1) }
        lineStarts = starts
    }

    mutating func position(of offset: Int) -> (line: Int, column: Int) {
        let offset = min(max(offset, 0), bytes.count)
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        var from = (offset: lineStarts[low], column: 1)
        if last.line == low + 1, last.offset <= offset { from = (last.offset, last.column) }
        // Characters: bytes that do not continue a UTF-8 sequence.
        var column = from.column
        for index in from.offset..<offset where bytes[index] & 0xC0 != 0x80 { column += 1 }
        last = (offset, low + 1, column)
        return (low + 1, column)
    }
}
