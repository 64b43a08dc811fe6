// The visitor-session clock: warning, countdown, cancelling, starting over.
import PortholeCore
import XCTest

final class KioskIdleSessionTests: XCTestCase {
    func testAFreshSessionIsNeverReset() {
        var idle = IdleSession(timeout: 60, warning: 10)
        XCTAssertEqual(idle.tick(at: 0), .none)
        XCTAssertEqual(idle.tick(at: 10_000), .none, "nobody used it: nothing to forget")
    }

    func testIdleWarnsCountsDownThenStartsOver() {
        var idle = IdleSession(timeout: 60, warning: 10)
        XCTAssertEqual(idle.input(at: 100), .none)
        let rows: [(Double, IdleSession.Action)] = [
            (130, .none),
            (159.9, .none),
            (160, .showWarning(secondsLeft: 10)),
            (160.5, .none),
            (161, .updateWarning(secondsLeft: 9)),
            (161.2, .none),
            (169.1, .updateWarning(secondsLeft: 1)),
            (170, .startNewSession),
            (171, .none),
            (1_000, .none),
        ]
        for (time, expected) in rows {
            XCTAssertEqual(idle.tick(at: time), expected, "at \(time)")
        }
        XCTAssertEqual(idle.phase, .fresh)
    }

    func testInputDuringTheWarningHidesItAndRestartsTheClock() {
        var idle = IdleSession(timeout: 60, warning: 10)
        _ = idle.input(at: 0)
        XCTAssertEqual(idle.tick(at: 61), .showWarning(secondsLeft: 9))
        XCTAssertEqual(idle.input(at: 62), .hideWarning)
        XCTAssertEqual(idle.tick(at: 70), .none, "the old deadline no longer counts")
        XCTAssertEqual(idle.tick(at: 121.9), .none)
        XCTAssertEqual(idle.tick(at: 122), .showWarning(secondsLeft: 10))
    }

    func testInputOutsideTheWarningChangesNothingOnScreen() {
        var idle = IdleSession(timeout: 5, warning: 5)
        XCTAssertEqual(idle.input(at: 0), .none)
        XCTAssertEqual(idle.input(at: 1), .none)
    }

    func testNoWarningStartsOverAtTheTimeout() {
        var idle = IdleSession(timeout: 30, warning: 0)
        _ = idle.input(at: 0)
        XCTAssertEqual(idle.tick(at: 29), .none)
        XCTAssertEqual(idle.tick(at: 30), .startNewSession)
    }

    func testATickLateAfterTheWholeWarningStartsOverWithoutShowingIt() {
        // The machine was suspended: no point showing a warning that is already over.
        var idle = IdleSession(timeout: 30, warning: 10)
        _ = idle.input(at: 0)
        XCTAssertEqual(idle.tick(at: 500), .startNewSession)
    }

    func testZeroTimeoutIsOff() {
        var idle = IdleSession(timeout: 0, warning: 10)
        XCTAssertFalse(idle.isEnabled)
        XCTAssertEqual(idle.input(at: 0), .none)
        XCTAssertEqual(idle.tick(at: 1_000), .none)
    }

    func testWarningTextCountsInWholeSeconds() {
        XCTAssertTrue(IdleSession.warningText(secondsLeft: 1).contains("in 1 second."))
        XCTAssertTrue(IdleSession.warningText(secondsLeft: 7).contains("in 7 seconds."))
    }
}

final class CountdownClockTests: XCTestCase {
    func testTheShownSecondAndWhenItNextChanges() {
        // (seconds left, shown, seconds until the shown value changes)
        let rows: [(Double, Int, Double)] = [(3.0, 3, 1.0), (2.5, 3, 0.5), (2.0, 2, 1.0), (0.25, 1, 0.25), (0.0, 1, 0.0), (-1, 1, 0.0)]
        for (left, shown, next) in rows {
            XCTAssertEqual(Countdown.secondsLeft(until: 100 + left, now: 100), shown, "\(left)")
            XCTAssertEqual(Countdown.untilNextChange(deadline: 100 + left, now: 100), next, accuracy: 1e-9, "\(left)")
        }
        XCTAssertEqual(Countdown.milliseconds(0), 1)
        XCTAssertEqual(Countdown.milliseconds(0.5), 501, "never early")
    }

    func testAnUntouchedSessionNeedsNoTimerAndAnActiveOneWakesOnlyWhenDue() {
        var session = IdleSession(timeout: 60, warning: 10)
        XCTAssertNil(session.nextTick(after: 0), "fresh: nothing can happen until input")
        _ = session.input(at: 5)
        XCTAssertEqual(session.nextTick(after: 6), 65, "wakes once, at the end of the idle time")
        XCTAssertEqual(session.tick(at: 65), .showWarning(secondsLeft: 10))
        XCTAssertEqual(session.nextTick(after: 65), 66, "then once a second for the countdown")
        XCTAssertEqual(session.tick(at: 75), .startNewSession)
        XCTAssertNil(session.nextTick(after: 75))
        XCTAssertNil(IdleSession(timeout: 0, warning: 10).nextTick(after: 0), "off")
    }
}
