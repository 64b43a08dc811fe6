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

    private static let unreservedFlag: UInt8 = 1
    private static let pathFlag: UInt8 = 2
    private static let queryFlag: UInt8 = 4
    private static let hostFlag: UInt8 = 8
    private static let schemeFlag: UInt8 = 16

    /// One flag set per byte value; built once.
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        func mark(_ characters: String, _ flag: UInt8) {
            for byte in characters.utf8 { table[Int(byte)] |= flag }
        }
        let lower = "abcdefghijklmnopqrstuvwxyz"
        let upper = lower.uppercased()
        let digits = "0123456789"
        mark(lower + upper + digits + "-._~", unreservedFlag)
        // Bytes that survive canonicalisation unchanged (RFC 3986 pchar without `%`, which is
        // checked separately). `'` is encoded in queries, as the WHATWG URL standard does for
        // special schemes.
        mark(lower + upper + digits + "-._~" + "!$&'()*+,;=" + ":@/", pathFlag)
        mark(lower + upper + digits + "-._~" + "!$&()*+,;=" + ":@/?", queryFlag)
        mark(lower + digits + "-_", hostFlag)
        // RFC 3986 scheme bytes, plus `_`: Chrome's own documented example is `custom_scheme:*`.
        mark(lower + upper + digits + "+-._", schemeFlag)
        return table
    }()

    @inline(__always) static func isUnreserved(_ byte: UInt8) -> Bool { table[Int(byte)] & unreservedFlag != 0 }
    /// A byte a canonical path holds as itself.
    @inline(__always) static func isCanonicalPathByte(_ byte: UInt8) -> Bool { table[Int(byte)] & pathFlag != 0 }
    /// A byte a canonical query holds as itself.
    @inline(__always) static func isCanonicalQueryByte(_ byte: UInt8) -> Bool { table[Int(byte)] & queryFlag != 0 }
    /// A byte of a canonical host label: lowercase letter, digit, `-` or `_`.
    @inline(__always) static func isHostLabelByte(_ byte: UInt8) -> Bool { table[Int(byte)] & hostFlag != 0 }
    /// A byte that may follow the first letter of a scheme.
    @inline(__always) static func isSchemeByte(_ byte: UInt8) -> Bool { table[Int(byte)] & schemeFlag != 0 }

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    @inline(__always) static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
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

    /// Whether `a` and `b[start..<start + a.count]` hold the same bytes.
    @inline(__always)
    static func equal(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard start + a.count <= b.count else { return false }
        return a.withUnsafeBufferPointer { a in
            var index = 0
            while index < a.count {
                if a[index] != b[start + index] { return false }
                index += 1
            }
            return true
        }
    }
}
