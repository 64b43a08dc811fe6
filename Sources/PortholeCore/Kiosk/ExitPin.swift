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

    /// Checks `pin` typed at monotonic time `now` (seconds). Hashes on the calling thread; the
    /// kiosk uses `lockout(at:)` and `record(matched:at:)` to hash off the main thread instead.
    public mutating func check(_ pin: String, at now: Double) -> Answer {
        if let answer = lockout(at: now) { return answer }
        return record(matched: hash.matches(pin: pin), at: now)
    }

    /// The answer while guesses are refused at `now`, or nil when a PIN may be checked.
    public mutating func lockout(at now: Double) -> Answer? {
        if let lockedUntil {
            if now < lockedUntil { return .lockedOut(secondsLeft: Int((lockedUntil - now).rounded(.up))) }
            self.lockedUntil = nil
            wrongTries = 0
        }
        return nil
    }

    /// Counts a PIN checked against `hash` (at `now`, after `lockout(at:)` returned nil).
    public mutating func record(matched: Bool, at now: Double) -> Answer {
        if matched {
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
        case .wrong(let left): trn("Wrong PIN. {count} try left.", "Wrong PIN. {count} tries left.", left)
            .replacing("{count}", with: String(left))
        case .lockedOut(let seconds): trn("Too many wrong PINs. Try again in {count} second.", "Too many wrong PINs. Try again in {count} seconds.", seconds)
            .replacing("{count}", with: String(seconds))
        }
    }
}

/// `porthole --hash-pin`: reads a PIN from standard input and prints the `[Kiosk]` line that holds
/// its slow salted hash (yescrypt), so the configuration never holds the PIN itself.
public enum HashPinCommand {
    /// Returns the exit status: 0, or 1 when no usable PIN was read or it could not be hashed.
    public static func run(readLine: () -> String?, hash: (String) -> ExitPinHash? = { ExitPinHash.crypt(pin: $0) },
                           out: (String) -> Void, err: (String) -> Void) -> Int32 {
        guard let line = readLine() else {
            err("porthole: " + tr("--hash-pin reads the PIN from standard input, and got nothing"))
            return 1
        }
        let pin = line.hasSuffix("\r") ? String(line.dropLast()) : line
        if let problem = problem(with: pin) {
            err("porthole: \(problem)")
            return 1
        }
        guard let hashed = hash(pin) else {
            err("porthole: " + tr("libcrypt could not hash the PIN"))
            return 1
        }
        out("exit-pin-hash=" + hashed.text)
        return 0
    }

    /// Why `pin` cannot be a PIN, or nil.
    static func problem(with pin: String) -> String? {
        if pin.isEmpty { return tr("the PIN is empty") }
        if pin.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return tr("the PIN contains control characters") }
        if pin.count < 4 { return tr("the PIN is shorter than 4 characters") }
        return nil
    }
}
