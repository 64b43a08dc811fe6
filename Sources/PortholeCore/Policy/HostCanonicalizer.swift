// Host canonicalisation for URLs and filters: IDN to ASCII, the WHATWG IPv4 parser, IPv6 form.
import CGLib

/// What a canonical host is.
enum HostKind: UInt8, Sendable {
    /// No host: opaque URLs (`data:`, `javascript:`), `file:` URLs, and the `*` filter host.
    case none
    case domain
    case ipv4
    case ipv6
}

/// Why a host, URL or filter was refused; turned into `URLParseError` or `FilterError`.
struct ParseProblem: Error {
    let reason: String
}

enum HostCanonicalizer {
    /// The canonical form of a host as written in a URL or filter, without IPv6 brackets:
    /// lowercase ASCII (IDN converted to punycode with `g_hostname_to_ascii`), one trailing dot
    /// removed, numeric IPv4 forms (`0x7f.1`, `2130706433`, `0177.0.0.1`) as a dotted quad and
    /// IPv6 in the WHATWG serialisation inside brackets.
    static func canonicalize(_ raw: [UInt8]) throws(ParseProblem) -> (host: [UInt8], kind: HostKind) {
        if raw.contains(URLBytes.colon) { return (try ipv6(raw), .ipv6) }
        var ascii = raw
        for index in ascii.indices {
            let byte = ascii[index]
            if byte >= 0x80 { return try domainOrIPv4(idnToASCII(raw)) }
            if byte >= 0x41, byte <= 0x5A { ascii[index] = byte | 0x20 }
        }
        return try domainOrIPv4(ascii)
    }

    private static func idnToASCII(_ raw: [UInt8]) throws(ParseProblem) -> [UInt8] {
        let text = String(decoding: raw, as: UTF8.self)
        guard let converted = g_hostname_to_ascii(text) else {
            throw ParseProblem(reason: tr("host \"{host}\" is not a valid international domain name").filled(["host": text]))
        }
        defer { g_free(converted) }
        return Array(String(cString: converted).utf8).map(URLBytes.lowercased)
    }

    /// A lowercase ASCII host checked against the WHATWG forbidden domain code points, with one
    /// trailing dot removed and IPv4 forms in dotted-quad form.
    static func domainOrIPv4(_ ascii: [UInt8]) throws(ParseProblem) -> (host: [UInt8], kind: HostKind) {
        var host = ascii
        if host.last == URLBytes.dot { host.removeLast() }
        guard !host.isEmpty else { throw ParseProblem(reason: tr("the host is empty")) }
        var labelStart = 0
        for index in host.indices {
            let byte = host[index]
            if byte == URLBytes.dot {
                if index == labelStart { throw emptyLabel(ascii) }
                labelStart = index + 1
            } else if isForbiddenDomainByte(byte) {
                throw ParseProblem(reason: tr("host \"{host}\" contains the character {character}")
                    .filled(["host": String(decoding: ascii, as: UTF8.self), "character": describe(byte)]))
            }
        }
        if labelStart == host.count { throw emptyLabel(ascii) }
        guard endsInNumber(host[labelStart...]) else { return (host, .domain) }
        let labels = host.split(separator: URLBytes.dot, omittingEmptySubsequences: false)
        guard let address = ipv4(labels) else {
            throw ParseProblem(reason: tr("host \"{host}\" ends in a number but is not a valid IPv4 address")
                .filled(["host": String(decoding: ascii, as: UTF8.self)]))
        }
        return (Array(dottedQuad(address).utf8), .ipv4)
    }

    private static func emptyLabel(_ ascii: [UInt8]) -> ParseProblem {
        ParseProblem(reason: tr("host \"{host}\" has an empty label").filled(["host": String(decoding: ascii, as: UTF8.self)]))
    }

    /// WHATWG "forbidden domain code point" (plus non-ASCII, which must have been converted).
    private static func isForbiddenDomainByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0...0x20, 0x7F...0xFF: return true
        case UInt8(ascii: "#"), UInt8(ascii: "%"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "<"),
             UInt8(ascii: ">"), UInt8(ascii: "?"), UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "\\"),
             UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "|"): return true
        default: return false
        }
    }

    static func describe(_ byte: UInt8) -> String {
        byte > 0x20 && byte < 0x7F ? "\"\(Character(Unicode.Scalar(byte)))\"" : "0x" + String(byte, radix: 16, uppercase: true)
    }

    // MARK: IPv4 (WHATWG URL standard, "IPv4 parser")

    /// WHATWG "ends in a number": the last label is all digits or a valid IPv4 number (`0x1f`).
    private static func endsInNumber(_ label: ArraySlice<UInt8>) -> Bool {
        if label.allSatisfy(URLBytes.isDigit) { return true }
        return ipv4Number(label) != nil
    }

    /// One part of an IPv4 address: decimal, octal with a leading `0`, hex with `0x`.
    /// Values beyond 2^32 are capped there, which every caller treats as too large.
    private static func ipv4Number(_ part: ArraySlice<UInt8>) -> UInt64? {
        guard !part.isEmpty else { return nil }
        var digits = part
        var radix: UInt64 = 10
        if digits.count >= 2, digits.first == UInt8(ascii: "0"),
           digits[digits.startIndex + 1] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            digits = digits.dropFirst(2)
        } else if digits.count >= 2, digits.first == UInt8(ascii: "0") {
            radix = 8
            digits = digits.dropFirst()
        }
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = URLBytes.hexValue(byte), UInt64(digit) < radix else { return nil }
            value = min(value * radix + UInt64(digit), 1 << 32)
        }
        return value
    }

    /// The address the labels spell, or nil when they are not a valid IPv4 address.
    private static func ipv4(_ labels: [ArraySlice<UInt8>]) -> UInt32? {
        guard labels.count <= 4 else { return nil }
        var numbers: [UInt64] = []
        for label in labels {
            guard let number = ipv4Number(label) else { return nil }
            numbers.append(number)
        }
        guard let last = numbers.last else { return nil }
        if numbers.dropLast().contains(where: { $0 > 255 }) { return nil }
        guard last < UInt64(1) << (8 * (5 - UInt64(numbers.count))) else { return nil }
        var address = last
        for (index, number) in numbers.dropLast().enumerated() {
            address += number << (8 * (3 - UInt64(index)))
        }
        return UInt32(address)
    }

    private static func dottedQuad(_ address: UInt32) -> String {
        "\(address >> 24).\(address >> 16 & 0xFF).\(address >> 8 & 0xFF).\(address & 0xFF)"
    }

    // MARK: IPv6

    /// `[…]` in the WHATWG serialisation (lowercase hex, the first longest run of two or more
    /// zero pieces compressed). GLib's `GInetAddress` does the parsing; zone ids are refused as
    /// the URL standard refuses them.
    static func ipv6(_ raw: [UInt8]) throws(ParseProblem) -> [UInt8] {
        let text = String(decoding: raw, as: UTF8.self)
        let problem = ParseProblem(reason: "\"\(text)\" is not a valid IPv6 address")
        guard !raw.contains(URLBytes.percent) else { throw problem }
        guard let address = g_inet_address_new_from_string(text) else { throw problem }
        defer { g_object_unref(address) }
        guard g_inet_address_get_family(address) == G_SOCKET_FAMILY_IPV6,
              let bytes = g_inet_address_to_bytes(address) else { throw problem }
        var pieces: [UInt16] = []
        for index in 0..<8 {
            pieces.append(UInt16(bytes[2 * index]) << 8 | UInt16(bytes[2 * index + 1]))
        }
        var bestStart = -1, bestLength = 1, runStart = -1
        for index in 0...8 {
            if index < 8, pieces[index] == 0 {
                if runStart < 0 { runStart = index }
            } else if runStart >= 0 {
                if index - runStart > bestLength { bestStart = runStart; bestLength = index - runStart }
                runStart = -1
            }
        }
        var out = "["
        var index = 0
        while index < 8 {
            if index == bestStart {
                out += index == 0 ? "::" : ":"
                index += bestLength
                continue
            }
            out += String(pieces[index], radix: 16)
            if index < 7 { out += ":" }
            index += 1
        }
        return Array((out + "]").utf8)
    }
}
