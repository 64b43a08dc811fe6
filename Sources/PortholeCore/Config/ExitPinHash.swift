// The salted hash of the kiosk exit PIN, as written in `[Kiosk] exit-pin-hash=sha256:SALT_HEX:HASH_HEX`.
import CGLib

/// HASH is the SHA-256 of the salt's bytes followed by the PIN's UTF-8 bytes, so the file never
/// holds the PIN and equal PINs on two kiosks with different salts hash differently.
public struct ExitPinHash: Sendable, Equatable {
    public var salt: [UInt8]
    public var hash: [UInt8]

    /// Parses `sha256:SALT_HEX:HASH_HEX`: a non-empty salt and exactly 32 bytes of hash, in hex.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "sha256",
              let salt = Self.bytes(hex: parts[1]), !salt.isEmpty,
              let hash = Self.bytes(hex: parts[2]), hash.count == 32 else { return nil }
        self.salt = salt
        self.hash = hash
    }

    public init(salt: [UInt8], pin: String) {
        self.salt = salt
        hash = Self.sha256(salt + Array(pin.utf8))
    }

    /// Whether `pin` is the PIN, compared in constant time.
    public func matches(pin: String) -> Bool {
        let candidate = Self.sha256(salt + Array(pin.utf8))
        return candidate.count == hash.count && zip(candidate, hash).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// `sha256:SALT_HEX:HASH_HEX`.
    public var text: String { "sha256:\(Self.hex(salt)):\(Self.hex(hash))" }

    private static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        let checksum = g_checksum_new(G_CHECKSUM_SHA256)
        defer { g_checksum_free(checksum) }
        g_checksum_update(checksum, bytes, gssize(bytes.count))
        var digest = [UInt8](repeating: 0, count: 32)
        var length = gsize(digest.count)
        g_checksum_get_digest(checksum, &digest, &length)
        return digest
    }

    private static func bytes(hex: Substring) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xf)]] })
    }
}
