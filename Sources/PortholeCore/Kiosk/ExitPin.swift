// Leaving kiosk mode: checking the admin's PIN with a limit on guesses, and `porthole --hash-pin`.

/// Checks PINs typed into the exit dialog. After `maximumTries` wrong PINs in a row it refuses
/// every PIN for `lockout` seconds, so a visitor cannot try them all at the kiosk.
public struct ExitPinGate: Sendable, Equatable {
    public enum Answer: Sendable, Equatable {
        case correct
        case wrong(triesLeft: Int)
        case lockedOut(secondsLeft: Int)
    }

    public let hash: ExitPinHash
    public let maximumTries: Int
    public let lockout: Double
    private var wrongTries = 0
    private var lockedUntil: Double?

    public init(hash: ExitPinHash, maximumTries: Int = 5, lockout: Double = 60) {
        self.hash = hash
        self.maximumTries = maximumTries
        self.lockout = lockout
    }

    /// Checks `pin` typed at monotonic time `now` (seconds).
    public mutating func check(_ pin: String, at now: Double) -> Answer {
        if let lockedUntil {
            if now < lockedUntil { return .lockedOut(secondsLeft: Int((lockedUntil - now).rounded(.up))) }
            self.lockedUntil = nil
            wrongTries = 0
        }
        if hash.matches(pin: pin) {
            wrongTries = 0
            return .correct
        }
        wrongTries += 1
        if wrongTries >= maximumTries {
            lockedUntil = now + lockout
            return .lockedOut(secondsLeft: Int(lockout.rounded(.up)))
        }
        return .wrong(triesLeft: maximumTries - wrongTries)
    }

    /// Seconds until PINs are checked again at `now`, or nil when they are not refused.
    public func lockoutSecondsLeft(at now: Double) -> Int? {
        guard let lockedUntil, now < lockedUntil else { return nil }
        return Int((lockedUntil - now).rounded(.up))
    }

    public static func message(for answer: Answer) -> String {
        switch answer {
        case .correct: ""
        case .wrong(let left):
            trn("Wrong PIN. {count} try left.", "Wrong PIN. {count} tries left.", left).replacing("{count}", with: String(left))
        case .lockedOut(let seconds):
            trn("Too many wrong PINs. Try again in {count} second.", "Too many wrong PINs. Try again in {count} seconds.", seconds)
                .replacing("{count}", with: String(seconds))
        }
    }
}

/// `porthole --hash-pin`: reads a PIN from standard input and prints the `[Kiosk]` line that holds
/// its salted hash, so the configuration never holds the PIN itself.
public enum HashPinCommand {
    /// Returns the exit status: 0, or 1 when no usable PIN was read.
    public static func run(readLine: () -> String?, salt: () -> [UInt8],
                           out: (String) -> Void, err: (String) -> Void) -> Int32 {
        guard let line = readLine() else {
            err("porthole: --hash-pin reads the PIN from standard input, and got nothing")
            return 1
        }
        let pin = line.hasSuffix("\r") ? String(line.dropLast()) : line
        if let problem = problem(with: pin) {
            err("porthole: \(problem)")
            return 1
        }
        out("exit-pin-hash=" + ExitPinHash(salt: salt(), pin: pin).text)
        return 0
    }

    /// Why `pin` cannot be a PIN, or nil.
    static func problem(with pin: String) -> String? {
        if pin.isEmpty { return "the PIN is empty" }
        if pin.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "the PIN contains control characters" }
        if pin.count < 4 { return "the PIN is shorter than 4 characters" }
        return nil
    }

    /// 16 random bytes from the system's cryptographic generator (getrandom(2) on Linux).
    public static func randomSalt() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
