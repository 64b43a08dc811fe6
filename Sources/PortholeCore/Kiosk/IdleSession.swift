// The visitor-session clock: when a kiosk left alone warns, and when it starts over.

/// Tracks input on a kiosk and decides when to warn and when to start a new visitor session.
///
/// A session is *fresh* until someone touches it, so a kiosk nobody uses is not reset over and
/// over. After `timeout` seconds without input the warning shows for `warning` seconds, counting
/// down; any input hides it. When it reaches zero the session starts over (cookies, storage,
/// history gone, home page). Times are monotonic seconds passed in by the caller, who ticks the
/// machine at `nextTick(after:)`, so a kiosk left alone is not woken up.
public struct IdleSession: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        /// No input since the session started: nothing to forget.
        case fresh
        /// In use; the last input was at `since`.
        case active(since: Double)
        /// The warning is showing and the session ends at `deadline`.
        case warning(deadline: Double, shownSeconds: Int)
    }

    public enum Action: Sendable, Equatable {
        case none
        case showWarning(secondsLeft: Int)
        case updateWarning(secondsLeft: Int)
        case hideWarning
        case startNewSession
    }

    public let timeout: Int
    public let warning: Int
    public private(set) var phase: Phase = .fresh
    /// What the idle time is multiplied by (1, or `[Accessibility] idle-factor-with-speech` while
    /// speech is on): the warning comes this many times later.
    public var factor: Double = 1 {
        didSet { factor = max(1, factor) }
    }
    /// Until when the More time button keeps the warning away, whatever the idle time says; nil
    /// when the visitor has not asked for more time.
    public private(set) var extendedUntil: Double?

    /// `timeout` 0 turns the reset off.
    public init(timeout: Int, warning: Int) {
        self.timeout = max(0, timeout)
        self.warning = max(0, warning)
    }

    public var isEnabled: Bool { timeout > 0 }

    /// Keyboard, pointer or touch input at `now`.
    public mutating func input(at now: Double) -> Action {
        guard isEnabled else { return .none }
        let wasWarning: Bool
        if case .warning = phase { wasWarning = true } else { wasWarning = false }
        phase = .active(since: now)
        return wasWarning ? .hideWarning : .none
    }

    /// The idle warning's More time button at `now`: like input, and the next warning comes no
    /// sooner than `seconds` from now (WCAG 2.2.1: the visitor extends with one simple action, as
    /// often as they like).
    public mutating func moreTime(at now: Double, seconds: Int) -> Action {
        guard isEnabled else { return .none }
        let action = input(at: now)
        extendedUntil = now + Double(max(0, seconds))
        return action
    }

    /// Seconds without input before the warning: the timeout, times the factor.
    public var idleSeconds: Double { Double(timeout) * factor }

    /// When a session last used at `since` starts to warn.
    private func idleEnd(since: Double) -> Double {
        max(since + idleSeconds, extendedUntil ?? -Double.infinity)
    }

    /// The clock at `now`: what to do, if anything.
    public mutating func tick(at now: Double) -> Action {
        guard isEnabled else { return .none }
        switch phase {
        case .fresh:
            return .none
        case .active(let since):
            let idleEnd = idleEnd(since: since)
            guard now >= idleEnd else { return .none }
            let deadline = idleEnd + Double(warning)
            if now >= deadline { return startOver() }
            let left = Countdown.secondsLeft(until: deadline, now: now)
            phase = .warning(deadline: deadline, shownSeconds: left)
            return .showWarning(secondsLeft: left)
        case .warning(let deadline, let shown):
            if now >= deadline { return startOver() }
            let left = Countdown.secondsLeft(until: deadline, now: now)
            guard left != shown else { return .none }
            phase = .warning(deadline: deadline, shownSeconds: left)
            return .updateWarning(secondsLeft: left)
        }
    }

    /// When the session, left alone from now on, starts over; nil while it is fresh (nothing to
    /// forget, no reset) or the reset is off.
    public var resetDue: Double? {
        guard isEnabled else { return nil }
        switch phase {
        case .fresh: return nil
        case .active(let since): return idleEnd(since: since) + Double(warning)
        case .warning(let deadline, _): return deadline
        }
    }

    /// The visitor's last input while the session is in use; nil while it is fresh or warning.
    public var lastInput: Double? {
        if case .active(let since) = phase { return since }
        return nil
    }

    /// When `tick` next has something to do: the end of the idle time, the countdown's next
    /// second, or nil while nothing can happen (a fresh session waits for input).
    public func nextTick(after now: Double) -> Double? {
        guard isEnabled else { return nil }
        switch phase {
        case .fresh: return nil
        case .active(let since): return max(now, idleEnd(since: since))
        case .warning(let deadline, _): return now + Countdown.untilNextChange(deadline: deadline, now: now)
        }
    }

    private mutating func startOver() -> Action {
        phase = .fresh
        extendedUntil = nil
        return .startNewSession
    }

    /// The warning's text.
    public static func warningTitle() -> String { tr("Are you still there?") }

    /// The line under the countdown: the other ways to keep going.
    public static func moreTimeHint() -> String {
        // TRANSLATORS: under the idle warning's countdown; "More time" is the button's label.
        tr("Or choose More time to stay longer.")
    }

    /// The idle warning's button that keeps the session.
    public static func moreTimeLabel() -> String {
        // TRANSLATORS: the button on the idle warning that gives the visitor more time.
        tr("More time")
    }

    public static func warningText(secondsLeft: Int) -> String {
        // TRANSLATORS: shown in large type on a public kiosk nobody has touched for a while.
        trn("This screen starts over for the next visitor in {count} second. Touch the screen or press a key to keep going.",
            "This screen starts over for the next visitor in {count} seconds. Touch the screen or press a key to keep going.",
            secondsLeft).replacing("{count}", with: String(secondsLeft))
    }
}
