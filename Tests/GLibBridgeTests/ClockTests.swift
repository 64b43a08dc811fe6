// The clock seam: a ManualClock fires its timers in order, at their due times, only when advanced;
// GLibClock's timers never fire early.
import GLibBridge
import XCTest

final class ClockTests: XCTestCase {
    func testAManualClockFiresDueTimersInOrderAtTheirOwnTimes() {
        MainActor.assumeIsolated {
            let clock = ManualClock(now: 10)
            var fired: [(String, Double)] = []
            _ = clock.after(seconds: 2) { fired.append(("b", clock.now)) }
            _ = clock.after(seconds: 1) {
                fired.append(("a", clock.now))
                _ = clock.after(seconds: 0.5) { fired.append(("a+", clock.now)) }  // set by a timer, due on the way
            }
            _ = clock.after(seconds: 2) { fired.append(("c", clock.now)) }  // same time as b: after it
            let cancelled = clock.after(seconds: 1.5) { fired.append(("x", clock.now)) }
            cancelled.cancel()
            XCTAssertFalse(cancelled.isActive)
            XCTAssertTrue(fired.isEmpty, "nothing fires before the clock is advanced")
            XCTAssertEqual(clock.nextDue, 11)
            clock.advance(by: 1.9)
            XCTAssertEqual(fired.map(\.0), ["a", "a+"])
            XCTAssertEqual(fired.map(\.1), [11, 11.5])
            XCTAssertEqual(clock.now, 11.9, accuracy: 1e-9)
            clock.advance(by: 5)
            XCTAssertEqual(fired.map(\.0), ["a", "a+", "b", "c"])
            XCTAssertEqual(fired.last?.1, 12)
            XCTAssertEqual(clock.now, 16.9, accuracy: 1e-9)
            XCTAssertNil(clock.nextDue)
        }
    }

    func testAGLibClockTimerFiresNotEarlyAndIsThenDone() {
        MainActor.assumeIsolated {
            let clock = GLibClock.shared
            let start = clock.now
            var firedAt: [Double] = []
            let timer = clock.after(seconds: 0.05) { firedAt.append(clock.now) }
            XCTAssertTrue(timer.isActive)
            XCTAssertTrue(MainLoop.iterate(timeout: 5) { !firedAt.isEmpty })
            XCTAssertGreaterThanOrEqual(firedAt[0] - start, 0.05)
            XCTAssertFalse(timer.isActive, "a one-shot timer is done once it has fired")
        }
    }
}
