// When to try again after a failure: delays that double, capped, and forgiven after a quiet spell.

/// Delays for bringing a page back after repeated failures: 1 s, 2 s, 4 s … at most `maximum`.
///
/// Times are seconds on a monotonic clock, passed in so the schedule is testable without one.
/// The count starts again after `reset()` (a page loaded) or when `stablePeriod` passed since the
/// last failure (counted from the failure, not from the page coming back): a kiosk whose page
/// crashes once a day reloads at once every time, while a page that crashes as soon as it is
/// shown backs off. `stablePeriod` is longer than `maximum`, so retries at the maximum delay
/// still count as consecutive.
public struct RetryBackoff: Sendable, Equatable {
    /// The delay before the first retry: 0 reloads at once (crashes), 1 waits a second (network).
    public let first: Int
    public let maximum: Int
    public let stablePeriod: Double

    /// Failures since the count last started.
    public private(set) var failures = 0
    /// When the last failure happened.
    private var lastFailure: Double?

    public init(first: Int, maximum: Int = 30, stablePeriod: Double = 60) {
        self.first = first
        self.maximum = maximum
        self.stablePeriod = stablePeriod
    }

    /// After a web process crash: reload at once, then 1 s, 2 s, 4 s … 30 s.
    public static let crash = RetryBackoff(first: 0)
    /// After a network failure: 1 s, 2 s, 4 s … 30 s.
    public static let network = RetryBackoff(first: 1)

    /// Records a failure at `now` and returns the seconds to wait before trying again.
    public mutating func delay(afterFailureAt now: Double) -> Int {
        if let lastFailure, now - lastFailure >= stablePeriod { failures = 0 }
        let delay = Self.delay(forFailure: failures, first: first, maximum: maximum)
        failures += 1
        lastFailure = now
        return delay
    }

    /// The page came back: the next failure starts the schedule again.
    public mutating func reset() {
        failures = 0
        lastFailure = nil
    }

    /// The delay for the `index`th consecutive failure (0-based).
    static func delay(forFailure index: Int, first: Int, maximum: Int) -> Int {
        if index == 0 { return min(first, maximum) }
        // With first = 0 the doubling starts from 1 s at the second failure.
        let base = max(first, 1)
        let exponent = first == 0 ? index - 1 : index
        guard exponent < 30 else { return maximum }
        return min(maximum, base << exponent)
    }
}
