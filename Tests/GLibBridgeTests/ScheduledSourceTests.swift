// ScheduledSource holds its GSource, not its ID: cancelling after the source ran touches nothing
// else, and the closure lives exactly as long as the source.
import CGLib
import GLibBridge
import XCTest

private final class Sentinel {
    let onFree: () -> Void
    init(onFree: @escaping () -> Void) { self.onFree = onFree }
    deinit { onFree() }
}

final class ScheduledSourceTests: XCTestCase {
    func testCancellingASourceThatAlreadyRanLeavesTheNextSourceAlone() {
        MainActor.assumeIsolated {
            var firstFreed = false
            var secondRan = false
            let first: ScheduledSource
            do {
                let sentinel = Sentinel { firstFreed = true }
                first = MainLoop.idle { _ = sentinel }
            }
            XCTAssertTrue(MainLoop.iterate(timeout: 5) { !first.isActive })
            XCTAssertTrue(firstFreed, "the closure is freed when the source has run")
            let second = MainLoop.idle { secondRan = true }
            first.cancel()
            first.cancel()
            XCTAssertFalse(first.isActive)
            XCTAssertTrue(second.isActive, "cancelling a finished source leaves other sources attached")
            XCTAssertTrue(MainLoop.iterate(timeout: 5) { secondRan })
        }
    }

    func testDroppingTheHandleNeitherCancelsNorLeaksTheSource() {
        MainActor.assumeIsolated {
            var ran = false
            var freed = false
            do {
                let sentinel = Sentinel { freed = true }
                MainLoop.after(milliseconds: 10) { _ = sentinel; ran = true }
            }
            XCTAssertFalse(freed, "the source keeps its closure while attached")
            XCTAssertTrue(MainLoop.iterate(timeout: 5) { ran })
            XCTAssertTrue(MainLoop.iterate(timeout: 5) { freed }, "and frees it once it has run")
        }
    }

    func testACancelledRepeatingTimerStopsAndFreesItsClosure() {
        MainActor.assumeIsolated {
            var ticks = 0
            var freed = false
            let source: ScheduledSource
            do {
                let sentinel = Sentinel { freed = true }
                source = MainLoop.every(milliseconds: 5) { _ = sentinel; ticks += 1; return true }
            }
            XCTAssertTrue(MainLoop.iterate(timeout: 5) { ticks >= 2 })
            source.cancel()
            XCTAssertTrue(freed)
            let stopped = ticks
            let later = MainLoop.after(milliseconds: 30) {}
            XCTAssertTrue(MainLoop.iterate(timeout: 5) { !later.isActive })
            XCTAssertEqual(ticks, stopped, "no tick after cancel")
        }
    }
}
