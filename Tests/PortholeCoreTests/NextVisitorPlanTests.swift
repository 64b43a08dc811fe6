// NextVisitorPlan as a table: event sequences in, commands out, and the next wake-up.
import PortholeCore
import XCTest

/// A visitor of a kiosk with idle-timeout=60 and idle-warning=10, who last touched it at 100:
/// the reset is due at 170, so the next visitor's session is prepared at 150 (20 s before).
private func tick(_ now: Double, due: Double? = 170, last: Double? = 100) -> NextVisitorEvent {
    .tick(at: now, resetDue: due, lastInput: last)
}

private struct Row {
    let name: String
    let events: [NextVisitorEvent]
    let then: NextVisitorEvent
    let expect: [NextVisitorCommand]
    /// The wake-up asked for after `then`, for the same reset and input as the last tick.
    var wakeUp: Double?? = .none
}

private let rows: [Row] = [
    // When to prepare.
    Row(name: "a fresh session (nobody touched it) prepares nothing", events: [], then: tick(10_000, due: nil, last: nil), expect: [], wakeUp: .some(nil)),
    Row(name: "in use, long before the reset: nothing yet", events: [], then: tick(120), expect: [], wakeUp: 150),
    Row(name: "20 s before the reset it prepares", events: [], then: tick(150), expect: [.prepare], wakeUp: 165),
    Row(name: "a late tick prepares too", events: [], then: tick(160), expect: [.prepare]),
    Row(name: "prepared once, not again on the next tick", events: [tick(150)], then: tick(151), expect: []),
    Row(name: "a short idle time: half of it after the last input (1 s of 2)", events: [], then: tick(100.9, due: 102, last: 100), expect: [],
        wakeUp: 101),
    Row(name: "a short idle time: prepared 1 s after the last input", events: [], then: tick(101, due: 102, last: 100), expect: [.prepare]),
    Row(name: "a long idle time: no sooner than 2 s after the last input", events: [], then: tick(101.9, due: 110, last: 100), expect: [],
        wakeUp: 102),
    Row(name: "while the warning shows (no last input), 20 s before the reset", events: [], then: tick(150, due: 170, last: nil), expect: [.prepare]),

    // At the reset.
    Row(name: "nothing prepared: the reset rebuilds", events: [], then: .reset, expect: [.rebuild]),
    Row(name: "a loaded page is swapped in", events: [tick(150), .loaded(at: 151)], then: .reset, expect: [.swap]),
    Row(name: "a page still loading is swapped in (it is untouched, and ahead)", events: [tick(150)], then: .reset, expect: [.swap]),
    Row(name: "the next reset, with nothing prepared again, rebuilds", events: [tick(150), .loaded(at: 151), .reset], then: .reset,
        expect: [.rebuild]),
    Row(name: "after the swap the new session is fresh: nothing prepared", events: [tick(150), .loaded(at: 151), .reset],
        then: tick(500, due: nil, last: nil), expect: [], wakeUp: .some(nil)),

    // Stale, slow, failed, out of date.
    Row(name: "a page loaded 60 s ago is stale: thrown away", events: [tick(150), .loaded(at: 151)], then: tick(211, due: 400, last: 330),
        expect: [.discard(why: "stale")], wakeUp: 380),
    Row(name: "stale, and the reset is near: thrown away and prepared again", events: [tick(150), .loaded(at: 151)],
        then: tick(211, due: 220, last: 150), expect: [.discard(why: "stale"), .prepare]),
    Row(name: "a loaded page asks to be woken when it turns stale", events: [tick(150)], then: .loaded(at: 151), expect: [], wakeUp: 211),
    Row(name: "still loading after 15 s: thrown away", events: [tick(150)], then: tick(165), expect: [.discard(why: "took too long")],
        wakeUp: .some(nil)),
    Row(name: "after that, this visitor's reset rebuilds", events: [tick(150), tick(165)], then: .reset, expect: [.rebuild]),
    Row(name: "after that, no second try for this visitor", events: [tick(150), tick(165)], then: tick(166), expect: []),
    Row(name: "a failed load or a crashed web process is thrown away", events: [tick(150)], then: .failed, expect: [.discard(why: "failed")]),
    Row(name: "a failure after it loaded is thrown away too", events: [tick(150), .loaded(at: 151)], then: .failed, expect: [.discard(why: "failed")]),
    Row(name: "after a failure, no second try for this visitor", events: [tick(150), .failed], then: tick(151), expect: [], wakeUp: .some(nil)),
    Row(name: "after a failure the reset rebuilds", events: [tick(150), .failed], then: .reset, expect: [.rebuild]),
    Row(name: "the next visitor is prepared again", events: [tick(150), .failed, .reset, tick(300, due: 370, last: 300)], then: tick(350, due: 370, last: 300),
        expect: [.prepare]),
    Row(name: "a failure with nothing prepared changes nothing", events: [], then: .failed, expect: []),
    Row(name: "new options throw the prepared page away", events: [tick(150), .loaded(at: 151)], then: .optionsChanged,
        expect: [.discard(why: "options changed")]),
    Row(name: "new options with nothing prepared: nothing to throw away", events: [], then: .optionsChanged, expect: []),
    Row(name: "after new options, the next tick prepares again", events: [tick(150), .loaded(at: 151), .optionsChanged], then: tick(152),
        expect: [.prepare]),
    Row(name: "new options after a failure may try again", events: [tick(150), .failed, .optionsChanged], then: tick(152), expect: [.prepare]),
    Row(name: "a load report with nothing preparing is ignored: still prepared at 150", events: [], then: .loaded(at: 10), expect: [], wakeUp: 150),
]

final class NextVisitorPlanTests: XCTestCase {
    func testTable() {
        for row in rows {
            var plan = NextVisitorPlan()
            var due: Double? = 170
            var last: Double? = 100
            for event in row.events {
                if case .tick(_, let d, let l) = event { due = d; last = l }
                _ = plan.handle(event)
            }
            if case .tick(_, let d, let l) = row.then { due = d; last = l }
            XCTAssertEqual(plan.handle(row.then), row.expect, row.name)
            if case .some(let expected) = row.wakeUp {
                XCTAssertEqual(plan.nextWakeUp(resetDue: due, lastInput: last), expected, row.name)
            }
        }
    }

    /// What the prepared view's notices tell the plan.
    func testPreparedViewNotices() {
        let cases: [(PageNotice, NextVisitorEvent?)] = [
            (.loadStarted, nil),
            (.loadCommitted(uri: "http://home/"), nil),
            (.progress(0.5), nil),
            (.title("Home"), nil),
            (.loadFinished, .loaded(at: 7)),
            (.loadFailed(uri: "http://home/", message: "refused"), .failed),
            (.navigationBlocked(uri: "http://else/", reason: "not on the list", shown: true), .failed),
            // A refused subframe or new window leaves the home page in place.
            (.navigationBlocked(uri: "http://else/", reason: "not on the list", shown: false), nil),
            (.webProcessTerminated, .failed),
            (.webProcessHung, .failed),
        ]
        for (notice, expected) in cases {
            XCTAssertEqual(NextVisitorEvent(preparedView: notice, at: 7), expected, "\(notice)")
        }
    }

    /// The reset the plan is given comes from IdleSession: nil while fresh, then the end of the
    /// idle time plus the warning, then the warning's deadline.
    func testResetDueFollowsTheIdleClock() {
        var idle = IdleSession(timeout: 60, warning: 10)
        XCTAssertNil(idle.resetDue)
        XCTAssertNil(idle.lastInput)
        _ = idle.input(at: 100)
        XCTAssertEqual(idle.resetDue, 170)
        XCTAssertEqual(idle.lastInput, 100)
        _ = idle.tick(at: 160)
        XCTAssertEqual(idle.resetDue, 170)
        XCTAssertNil(idle.lastInput)
        _ = idle.tick(at: 170)
        XCTAssertNil(idle.resetDue)
        XCTAssertNil(IdleSession(timeout: 0, warning: 10).resetDue)
    }
}
