// Retry delays after crashes and network failures: doubling, capped, forgiven after a quiet spell.
import PortholeCore
import XCTest

final class KioskBackoffTests: XCTestCase {
    func testCrashesReloadAtOnceThenDoubleUpToHalfAMinute() {
        var backoff = RetryBackoff.crash
        // Each crash comes right after the reload it follows: the page never stays up.
        var now = 0.0
        var delays: [Int] = []
        for _ in 0..<10 {
            let delay = backoff.delay(afterFailureAt: now)
            delays.append(delay)
            now += Double(delay) + 0.5
        }
        XCTAssertEqual(delays, [0, 1, 2, 4, 8, 16, 30, 30, 30, 30])
    }

    func testNetworkFailuresWaitASecondFirst() {
        var backoff = RetryBackoff.network
        var now = 0.0
        var delays: [Int] = []
        for _ in 0..<9 {
            let delay = backoff.delay(afterFailureAt: now)
            delays.append(delay)
            now += Double(delay)  // the retry fails at once (connection refused)
        }
        XCTAssertEqual(delays, [1, 2, 4, 8, 16, 30, 30, 30, 30])
    }

    func testAMinuteAfterTheLastCrashStartsTheScheduleAgain() {
        var backoff = RetryBackoff.crash
        XCTAssertEqual(backoff.delay(afterFailureAt: 0), 0)
        XCTAssertEqual(backoff.delay(afterFailureAt: 10), 1)
        XCTAssertEqual(backoff.delay(afterFailureAt: 12), 2)  // reloaded at 11, crashed 1 s later
        // 59 s after the last crash is not long enough…
        XCTAssertEqual(backoff.delay(afterFailureAt: 71), 4)
        // …a minute after it is, however long the last wait was (README: counted from the last crash).
        XCTAssertEqual(backoff.delay(afterFailureAt: 131), 0)
        XCTAssertEqual(backoff.failures, 1)
    }

    func testCrashesAMinuteApartAlwaysReloadAtOnce() {
        // Issue 15: crashes 63 s apart waited 60 s each; counted from the last crash they do not wait.
        var backoff = RetryBackoff.crash
        XCTAssertEqual((0..<5).map { backoff.delay(afterFailureAt: Double($0) * 63) }, [0, 0, 0, 0, 0])
    }

    func testMaximumDelaysDoNotCountAsStable() {
        // Retries at the maximum delay are consecutive failures, not a stable page: the delay stays capped.
        var backoff = RetryBackoff.network
        var now = 0.0
        for _ in 0..<12 { now += Double(backoff.delay(afterFailureAt: now)) }
        XCTAssertEqual(backoff.delay(afterFailureAt: now), 30)
    }

    func testResetAfterALoadStartsAgain() {
        var backoff = RetryBackoff.network
        _ = backoff.delay(afterFailureAt: 0)
        _ = backoff.delay(afterFailureAt: 1)
        backoff.reset()
        XCTAssertEqual(backoff.delay(afterFailureAt: 3), 1)
    }

    func testVeryLongRunsStayAtTheMaximum() {
        var backoff = RetryBackoff(first: 1, maximum: 60, stablePeriod: .infinity)
        var last = 0
        for index in 0..<200 { last = backoff.delay(afterFailureAt: Double(index)) }
        XCTAssertEqual(last, 60)
    }
}
