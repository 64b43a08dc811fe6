// The one wake-up a Core session asks for (`.wake(at:)` in monotonic seconds), on the main loop.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Asking again replaces the pending wake-up; nil cancels it. Time is read and timers are set on
/// `clock` (GLib's; a test's `ManualClock`).
@MainActor
final class WakeUp {
    private let clock: any Clock
    private var source: (any ClockTimer)?

    init(clock: any Clock) { self.clock = clock }

    /// The clock's time now, in monotonic seconds: what the sessions' events carry.
    var now: Double { clock.now }

    /// Runs `work` with the time it runs at, once `time` has come.
    func set(_ time: Double?, _ work: @escaping @MainActor (_ now: Double) -> Void) {
        cancel()
        source = time.map { time in
            clock.after(seconds: max(0, time - clock.now)) { [weak self] in
                guard let self else { return }
                self.source = nil
                work(self.clock.now)
            }
        }
    }

    func cancel() {
        source?.cancel()
        source = nil
    }
}
