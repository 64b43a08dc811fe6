// Whole-second countdowns, and when their shown value next changes, so timers fire only then.

public enum Countdown {
    /// Whole seconds left until `deadline`, rounded up (N shows for the whole N-th second), at least 1.
    public static func secondsLeft(until deadline: Double, now: Double) -> Int {
        max(1, Int((deadline - now).rounded(.up)))
    }

    /// Seconds from `now` until the shown value next changes (or the deadline is reached):
    /// in (0, 1] while time is left, 0 once it is up.
    public static func untilNextChange(deadline: Double, now: Double) -> Double {
        let left = deadline - now
        guard left > 0 else { return 0 }
        return left - (left.rounded(.up) - 1)
    }

    /// A delay for a GLib timeout that fires at or just after `seconds`, never early.
    public static func milliseconds(_ seconds: Double) -> UInt32 {
        UInt32(min(86_400_000, max(1, (seconds * 1000).rounded(.up) + 1)))
    }
}
