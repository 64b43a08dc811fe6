// Byte classes and percent-encoding rules shared by URL canonicalisation and filter parsing.

/// ASCII byte constants and classes. Canonical URLs are ASCII, so everything here works on bytes:
/// that keeps the decision path free of `Character` and `String.Index` work.
enum URLBytes {
    static let slash = UInt8(ascii: "/")
    static let backslash = UInt8(ascii: "\\")
    static let colon = UInt8(ascii: ":")
    static let question = UInt8(ascii: "?")
    static let hash = UInt8(ascii: "#")
    static let dot = UInt8(ascii: ".")
    static let percent = UInt8(ascii: "%")
    static let at = UInt8(ascii: "@")
    static let ampersand = UInt8(ascii: "&")
    static let equals = UInt8(ascii: "=")
    static let star = UInt8(ascii: "*")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    @inline(__always) static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    @inline(__always) static func isLowercaseLetter(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }

    /// RFC 3986 unreserved: letters, digits, `-`, `.`, `_`, `~`.
    @inline(__always) static func isUnreserved(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
    }

    /// RFC 3986 sub-delims `!$&'()*+,;=` and `:`, `@`, `/`: with the unreserved bytes, what a
    /// canonical path holds as itself (`%` is checked separately).
    @inline(__always) static func isCanonicalPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x21, 0x24, 0x26...0x2F, 0x3A, 0x3B, 0x3D, 0x40: return true
        default: return isUnreserved(byte)
        }
    }

    /// A byte a canonical query holds as itself: as in paths, plus `?`, minus `'` (which the
    /// WHATWG URL standard escapes in queries of special schemes).
    @inline(__always) static func isCanonicalQueryByte(_ byte: UInt8) -> Bool {
        byte == 0x3F || (byte != 0x27 && isCanonicalPathByte(byte))
    }

    /// A byte of a canonical host label: lowercase letter, digit, `-` or `_`.
    @inline(__always) static func isHostLabelByte(_ byte: UInt8) -> Bool {
        isLowercaseLetter(byte) || isDigit(byte) || byte == 0x2D || byte == 0x5F
    }

    /// A byte that may follow the first letter of a scheme: RFC 3986 letters, digits, `+-.`,
    /// and `_`, because Chrome's own documented example is `custom_scheme:*`.
    @inline(__always) static func isSchemeByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == 0x2B || byte == 0x2D || byte == 0x2E || byte == 0x5F
    }

    @inline(__always) static func isUpperHex(_ byte: UInt8) -> Bool { isDigit(byte) || (byte >= 0x41 && byte <= 0x46) }
    @inline(__always) static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    /// The value of a hexadecimal digit of either case, or nil.
    @inline(__always) static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    /// Whether `bytes[index...]` starts with a canonical escape: `%` and two uppercase hex digits
    /// that do not spell an unreserved byte (those are written as themselves).
    @inline(__always)
    static func isCanonicalEscape<C: RandomAccessCollection<UInt8>>(_ bytes: C, at index: C.Index) -> Bool {
        let first = bytes.index(after: index)
        guard first != bytes.endIndex else { return false }
        let second = bytes.index(after: first)
        guard second != bytes.endIndex else { return false }
        let high = bytes[first], low = bytes[second]
        guard isUpperHex(high), isUpperHex(low), let h = hexValue(high), let l = hexValue(low) else { return false }
        return !isUnreserved(h << 4 | l)
    }

    /// Whether `bytes` is a path exactly as canonicalisation would leave it: only canonical bytes
    /// and escapes, no `.` or `..` segments. Paths that pass need no trip through GLib.
    static func isCanonicalPath<C: RandomAccessCollection<UInt8>>(_ bytes: C) -> Bool where C.Index == Int {
        var segmentStart = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == percent {
                guard isCanonicalEscape(bytes, at: index) else { return false }
                index += 3
                continue
            }
            if byte == slash {
                if isDotSegment(bytes, segmentStart, index) { return false }
                segmentStart = index + 1
            } else if !isCanonicalPathByte(byte) {
                return false
            }
            index += 1
        }
        return !isDotSegment(bytes, segmentStart, index)
    }

    /// Whether `bytes` is a query exactly as canonicalisation would leave it.
    static func isCanonicalQuery<C: RandomAccessCollection<UInt8>>(_ bytes: C) -> Bool where C.Index == Int {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == percent {
                guard isCanonicalEscape(bytes, at: index) else { return false }
                index += 3
                continue
            }
            guard isCanonicalQueryByte(byte) else { return false }
            index += 1
        }
        return true
    }

    @inline(__always)
    static func isDotSegment<C: RandomAccessCollection<UInt8>>(_ bytes: C, _ start: Int, _ end: Int) -> Bool where C.Index == Int {
        switch end - start {
        case 1: return bytes[start] == dot
        case 2: return bytes[start] == dot && bytes[start + 1] == dot
        default: return false
        }
    }

    /// `bytes` with every byte for which `needsEscape` holds written as `%XX`.
    static func escaping(_ bytes: some Sequence<UInt8>, where needsEscape: (UInt8) -> Bool) -> [UInt8] {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            if needsEscape(byte) {
                out.append(percent)
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0xF)])
            } else {
                out.append(byte)
            }
        }
        return out
    }

    /// Path bytes the WHATWG URL standard percent-encodes, plus controls and non-ASCII. GLib's
    /// parser leaves these as they are, so canonicalisation escapes them afterwards.
    static func pathNeedsEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case 0...0x20, 0x7F...0xFF: return true
        case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "`"),
             UInt8(ascii: "{"), UInt8(ascii: "}"), hash, question: return true
        default: return false
        }
    }

    /// Query bytes the WHATWG URL standard percent-encodes for special schemes.
    static func queryNeedsEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case 0...0x20, 0x7F...0xFF: return true
        case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "'"), hash: return true
        default: return false
        }
    }

    /// The UTF-8 of `text` without leading and trailing C0 controls and spaces.
    static func trimmed(_ text: String) -> [UInt8] {
        text.withUTF8Bytes { bytes in
            guard let first = bytes.firstIndex(where: { $0 > 0x20 }), let last = bytes.lastIndex(where: { $0 > 0x20 }) else {
                return []
            }
            return Array(bytes[first...last])
        }
    }

    /// Whether `pool[span]` and `bytes[start..<start + span.count]` hold the same bytes.
    @inline(__always)
    static func equal(_ pool: UnsafeBufferPointer<UInt8>, _ span: CompiledFilter.Span,
                      _ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        let count = Int(span.count)
        let from = Int(span.start)
        guard start >= 0, start + count <= bytes.count else { return false }
        var index = 0
        while index < count {
            if pool[from + index] != bytes[start + index] { return false }
            index += 1
        }
        return true
    }
}

extension String {
    /// Calls `body` with the string's UTF-8 as one buffer (copied only when the string is not
    /// stored as UTF-8): scanning a buffer is several times faster than the UTF8View's iterator,
    /// which counts when a configuration holds 100,000 hosts.
    @inline(__always)
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        var text = self
        return try text.withUTF8(body)
    }
}
