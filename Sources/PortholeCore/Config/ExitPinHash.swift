// The kiosk exit PIN as the configuration holds it: a slow crypt(3) hash (`$y$…`, yescrypt, from
// `porthole --hash-pin`), or the old `sha256:SALT_HEX:HASH_HEX` lines, still accepted.
import CGLib

/// Equal PINs on two kiosks hash differently (each hash has its own salt), and the file never
/// holds the PIN. A 4-digit PIN has only 10,000 candidates, so what protects it is the cost of
/// one guess: yescrypt through libxcrypt's `crypt_r` costs tens of milliseconds, where the old
/// salted SHA-256 cost microseconds (all 10,000 PINs in milliseconds).
public struct ExitPinHash: Sendable, Equatable {
    private enum Form: Sendable, Equatable {
        /// A crypt(3) hash string: `$y$…` (yescrypt), `$6$…` (SHA-512-crypt), `$2b$…` and the other
        /// methods libxcrypt considers current.
        case crypt(String)
        /// HASH is the SHA-256 of the salt's bytes followed by the PIN's UTF-8 bytes.
        case sha256(salt: [UInt8], hash: [UInt8])
    }

    private let form: Form

    /// The prefix `--hash-pin` asks libxcrypt for: yescrypt, Debian's default for passwords.
    public static let preferredMethod = "$y$"

    /// Parses a crypt(3) hash that libxcrypt accepts as current (`crypt_checksalt`), or the old
    /// `sha256:SALT_HEX:HASH_HEX` with a non-empty salt and exactly 32 bytes of hash, in hex.
    public init?(_ text: String) {
        if text.hasPrefix("$") {
            guard text.utf8.count < Int(CRYPT_OUTPUT_SIZE), crypt_checksalt(text) == Int32(CRYPT_SALT_OK),
                  Self.isCompleteHash(text) else { return nil }
            form = .crypt(text)
            return
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "sha256",
              let salt = Self.bytes(hex: parts[1]), !salt.isEmpty,
              let hash = Self.bytes(hex: parts[2]), hash.count == 32 else { return nil }
        form = .sha256(salt: salt, hash: hash)
    }

    /// The old form, for reading old configuration lines and for tests that need a fast hash.
    public init(salt: [UInt8], pin: String) {
        form = .sha256(salt: salt, hash: Self.sha256(salt + Array(pin.utf8)))
    }

    /// A new hash of `pin` with a fresh random salt (from libxcrypt, which reads getrandom(2)),
    /// by `method` at its default cost; nil if libxcrypt cannot.
    public static func crypt(pin: String, method: String = preferredMethod) -> ExitPinHash? {
        var setting = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        guard crypt_gensalt_rn(method, 0, nil, 0, &setting, Int32(setting.count)) != nil else { return nil }
        return cryptHash(pin, setting: setting).flatMap(ExitPinHash.init)
    }

    /// Whether this is the old `sha256:` form, which `--check-config` asks to replace.
    public var isLegacy: Bool {
        if case .sha256 = form { return true }
        return false
    }

    /// Whether `pin` is the PIN, compared in constant time. Slow for crypt hashes on purpose:
    /// call it off the main thread.
    public func matches(pin: String) -> Bool {
        switch form {
        case .crypt(let stored):
            guard let candidate = Self.cryptHash(pin, setting: Array(stored.utf8CString)) else { return false }
            return Self.constantTimeEqual(Array(candidate.utf8), Array(stored.utf8))
        case .sha256(let salt, let hash):
            return Self.constantTimeEqual(Self.sha256(salt + Array(pin.utf8)), hash)
        }
    }

    /// The text for `exit-pin-hash=`.
    public var text: String {
        switch form {
        case .crypt(let stored): stored
        case .sha256(let salt, let hash): "sha256:\(Self.hex(salt)):\(Self.hex(hash))"
        }
    }

    /// Whether `text` is a whole hash, not just the setting (`$y$j9T$SALT`) that crypt_checksalt
    /// also accepts: the hash part of the common methods has a known length (libxcrypt's
    /// crypt(5)); any other method is asked to hash, since a whole hash hashes to its own length.
    private static func isCompleteHash(_ text: String) -> Bool {
        let fields = text.split(separator: "$", omittingEmptySubsequences: false)
        let hashLength: [Substring: Int] = ["y": 43, "gy": 43, "7": 43, "5": 43, "6": 86]
        if fields.count >= 4, let expected = hashLength[fields[1]] { return fields.last?.count == expected }
        return cryptHash("", setting: Array(text.utf8CString))?.utf8.count == text.utf8.count
    }

    /// `crypt_r(pin, setting)`, or nil when it fails (libxcrypt then returns a string starting
    /// with `*`, never a valid hash).
    private static func cryptHash(_ pin: String, setting: [CChar]) -> String? {
        let data = UnsafeMutablePointer<crypt_data>.allocate(capacity: 1)  // 32 KiB: not on the stack
        defer {
            // It held the PIN: clear it before giving it back.
            UnsafeMutableRawPointer(data).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<crypt_data>.size)
            data.deallocate()
        }
        UnsafeMutableRawPointer(data).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<crypt_data>.size)
        guard let result = crypt_r(pin, setting, data) else { return nil }
        let text = String(cString: result)
        return text.hasPrefix("*") ? nil : text
    }

    private static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

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
