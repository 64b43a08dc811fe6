// The one clock the UI reads: monotonic seconds and one-shot timers, GLib's or a test's.
import CGLib

/// Monotonic time in seconds and one-shot timers on the main loop. Adapters read time and set
/// timers through this seam only, so a test can hand them a `ManualClock` and advance it by hand
/// (as swift-nio's `EmbeddedEventLoop.advanceTime` does) instead of waiting real seconds.
public protocol Clock: AnyObject, Sendable {
    /// Monotonic seconds: only differences mean anything.
    @MainActor var now: Double { get }
    /// Runs `work` once, `seconds` from now and never earlier, unless the timer is cancelled.
    @MainActor func after(seconds: Double, _ work: @escaping @MainActor () -> Void) -> any ClockTimer
}

/// A timer set on a `Clock`.
@MainActor
public protocol ClockTimer: AnyObject {
    /// Whether it is still to fire (neither fired nor cancelled).
    var isActive: Bool { get }
    func cancel()
}

extension ScheduledSource: ClockTimer {}

/// The real clock: `g_get_monotonic_time` and GLib timeouts on the default main context.
public final class GLibClock: Clock {
    public static let shared = GLibClock()

    public init() {}

    /// The monotonic clock in seconds, readable from any thread.
    public static var monotonicNow: Double { Double(g_get_monotonic_time()) / 1_000_000 }

    public var now: Double { Self.monotonicNow }

    @MainActor
    public func after(seconds: Double, _ work: @escaping @MainActor () -> Void) -> any ClockTimer {
        MainLoop.after(milliseconds: Self.milliseconds(seconds), work)
    }

    /// A GLib timeout's delay that ends at or just after `seconds` (GLib counts whole
    /// milliseconds and may round down), at most a day.
    static func milliseconds(_ seconds: Double) -> UInt32 {
        UInt32(min(86_400_000, max(1, (seconds * 1000).rounded(.up) + 1)))
    }
}

/// A clock that stands still until a test advances it; its timers fire during `advance(by:)`,
/// each at its own due time, in order.
@MainActor
public final class ManualClock: Clock {
    public private(set) var now: Double
    private var timers: [ManualTimer] = []
    private var nextOrder = 0

    public init(now: Double = 1_000) {
        self.now = now
    }

    public func after(seconds: Double, _ work: @escaping @MainActor () -> Void) -> any ClockTimer {
        let timer = ManualTimer(due: now + max(0, seconds), order: nextOrder, work: work)
        nextOrder += 1
        timers.append(timer)
        return timer
    }

    /// Moves time on by `seconds`, running every timer that falls due on the way (those the
    /// timers set included) with `now` at its due time.
    public func advance(by seconds: Double) {
        let end = now + max(0, seconds)
        while let next = timers.filter({ $0.isActive && $0.due <= end }).min(by: { ($0.due, $0.order) < ($1.due, $1.order) }) {
            now = max(now, next.due)
            next.fire()
            timers.removeAll { !$0.isActive }
        }
        now = end
    }

    /// When the earliest timer still to fire is due, or nil when none is.
    public var nextDue: Double? { timers.filter(\.isActive).map(\.due).min() }
}

@MainActor
private final class ManualTimer: ClockTimer {
    let due: Double
    let order: Int
    private var work: (@MainActor () -> Void)?

    init(due: Double, order: Int, work: @escaping @MainActor () -> Void) {
        self.due = due
        self.order = order
        self.work = work
    }

    var isActive: Bool { work != nil }

    func cancel() { work = nil }

    func fire() {
        let work = self.work
        self.work = nil
        work?()
    }
}
