// The screen reader's touch gestures as a table: touches and times in, gestures out.
import PortholeCore
import XCTest

private let here = TouchPoint(100, 100)
private func down(_ time: Double, _ point: TouchPoint = here, finger: Int = 1) -> TouchInput { .down(finger: finger, point, at: time) }
private func move(_ time: Double, _ point: TouchPoint, finger: Int = 1) -> TouchInput { .move(finger: finger, point, at: time) }
private func up(_ time: Double, _ point: TouchPoint = here, finger: Int = 1) -> TouchInput { .up(finger: finger, point, at: time) }
private func tap(_ time: Double) -> [TouchInput] { [down(time), up(time + 0.05)] }

private struct Row {
    let name: String
    let inputs: [TouchInput]
    let then: TouchInput
    let expect: [TouchGesture]
}

private let rows: [Row] = [
    // One tap: said at once.
    Row(name: "a touch asks to be woken for a long press", inputs: [], then: down(1), expect: [.touched, .wake(at: 1.8)]),
    Row(name: "lifted quickly, it is a tap, at once", inputs: [down(1)], then: up(1.1), expect: [.tap(here)]),
    Row(name: "lifted at the tap time, still a tap", inputs: [down(1)], then: up(1.5), expect: [.tap(here)]),
    Row(name: "held longer, it is none", inputs: [down(1)], then: up(1.6), expect: []),
    Row(name: "a drift within the slop is still a tap", inputs: [down(1), move(1.05, TouchPoint(120, 110))],
        then: up(1.1, TouchPoint(120, 110)), expect: [.tap(here)]),
    Row(name: "a move beyond it explores", inputs: [down(1)], then: move(1.1, TouchPoint(130, 100)), expect: [.explore(TouchPoint(130, 100))]),
    Row(name: "and every move after it", inputs: [down(1), move(1.1, TouchPoint(130, 100))], then: move(1.2, TouchPoint(131, 100)),
        expect: [.explore(TouchPoint(131, 100))]),
    Row(name: "an explored touch's lift is no tap", inputs: [down(1), move(1.1, TouchPoint(130, 100))], then: up(1.2, TouchPoint(130, 100)),
        expect: []),

    // Two taps: a double tap, once no third has come.
    Row(name: "a second tap waits for a third", inputs: tap(1), then: down(1.3), expect: [.touched, .wake(at: 2.1)]),
    Row(name: "and is not said at once", inputs: tap(1) + [down(1.3)], then: up(1.35), expect: [.wake(at: 1.75)]),
    Row(name: "its wake-up makes it a double tap", inputs: tap(1) + tap(1.3), then: .tick(at: 1.75), expect: [.doubleTap]),
    Row(name: "but not earlier", inputs: tap(1) + tap(1.3), then: .tick(at: 1.7), expect: []),
    Row(name: "once only", inputs: tap(1) + tap(1.3) + [.tick(at: 1.75)], then: .tick(at: 3), expect: []),
    Row(name: "a late touch after it still makes it one (a missed wake-up)", inputs: tap(1) + tap(1.3), then: down(2.5),
        expect: [.touched, .doubleTap, .wake(at: 3.3)]),
    Row(name: "taps too far apart are two single taps", inputs: tap(1) + [down(1.5)], then: up(1.55), expect: [.tap(here)]),
    Row(name: "a double tap anywhere counts (it activates what was said)", inputs: tap(1) + [down(1.3, TouchPoint(400, 300))],
        then: up(1.35, TouchPoint(400, 300)), expect: [.wake(at: 1.75)]),

    // Three taps.
    Row(name: "a third tap in time is a triple tap", inputs: tap(1) + tap(1.3) + [down(1.6)], then: up(1.65), expect: [.tripleTap]),
    Row(name: "and no double tap follows it", inputs: tap(1) + tap(1.3) + tap(1.6), then: .tick(at: 1.75), expect: []),
    Row(name: "the next tap starts again", inputs: tap(1) + tap(1.3) + tap(1.6) + [down(1.8)], then: up(1.85), expect: [.tap(here)]),
    Row(name: "a third tap too late is a new single one", inputs: tap(1) + tap(1.3) + [.tick(at: 1.75), down(2)], then: up(2.05),
        expect: [.tap(here)]),

    // Long press.
    Row(name: "held still for the long press time", inputs: [down(1)], then: .tick(at: 1.8), expect: [.longPress(here)]),
    Row(name: "not before", inputs: [down(1)], then: .tick(at: 1.7), expect: []),
    Row(name: "once per press", inputs: [down(1), .tick(at: 1.8)], then: .tick(at: 2.5), expect: []),
    Row(name: "its lift is no tap", inputs: [down(1), .tick(at: 1.8)], then: up(2), expect: []),
    Row(name: "nor is a moving finger a long press", inputs: [down(1), move(1.2, TouchPoint(200, 100))], then: .tick(at: 1.8), expect: []),
    Row(name: "a finger lifted before it is none", inputs: [down(1), up(1.1)], then: .tick(at: 1.8), expect: []),
    Row(name: "after a tap, a held second touch is a long press, not a double tap", inputs: tap(1) + [down(1.3)], then: .tick(at: 2.1),
        expect: [.longPress(here)]),

    // A second finger: no gesture.
    Row(name: "two fingers are no tap", inputs: [down(1), down(1.02, finger: 2), up(1.05, finger: 2)], then: up(1.1), expect: []),
    Row(name: "nor a long press", inputs: [down(1), down(1.02, finger: 2)], then: .tick(at: 1.8), expect: []),
    Row(name: "the second finger's touch says nothing", inputs: [down(1)], then: down(1.02, finger: 2), expect: []),
    Row(name: "after both lift, a tap is a tap again", inputs: [down(1), down(1.02, finger: 2), up(1.05, finger: 2), up(1.1), down(2)],
        then: up(2.05), expect: [.tap(here)]),
    Row(name: "a cancelled touch is none", inputs: [down(1), .cancel(finger: 1, at: 1.05)], then: up(1.1), expect: []),
    Row(name: "and ends a run of taps", inputs: tap(1) + [down(1.3), .cancel(finger: 1, at: 1.32), down(1.4)], then: up(1.45),
        expect: [.tap(here)]),
]

final class TouchGesturesTests: XCTestCase {
    func testEachTouchGivesItsGesture() {
        for row in rows {
            var gestures = TouchGestures()
            for input in row.inputs { _ = gestures.handle(input) }
            XCTAssertEqual(gestures.handle(row.then), row.expect, row.name)
        }
    }

    /// The figures the table's times assume, so a change to them is a change to the table.
    func testTheThresholds() {
        XCTAssertEqual(TouchGestures.tapTime, 0.5)
        XCTAssertEqual(TouchGestures.tapGap, 0.4)
        XCTAssertEqual(TouchGestures.longPress, 0.8)
        XCTAssertEqual(TouchGestures.slop, 24)
    }
}
