// The one wake-up a Core session asks for (`.wake(at:)` in monotonic seconds), on the main loop.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Asking again replaces the pending wake-up; nil cancels it.
@MainActor
final class WakeUp {
    private var source: ScheduledSource?

    /// Runs `work` with the time it runs at, once `time` has come.
    func set(_ time: Double?, _ work: @escaping @MainActor (_ now: Double) -> Void) {
        cancel()
        source = time.map { time in
            MainLoop.after(milliseconds: Countdown.milliseconds(max(0, time - Self.now()))) { [weak self] in
                self?.source = nil
                work(Self.now())
            }
        }
    }

    func cancel() {
        source?.cancel()
        source = nil
    }

    /// The monotonic clock the sessions' times are read from, in seconds.
    static func now() -> Double { GLibClock.monotonicNow }
}
