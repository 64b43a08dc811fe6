// The Chrome policy folder's debounce: a reload once the folder has been quiet for 0.5 s, and
// never later than 5 s after the first change.
import XCTest
@testable import PortholeCore

final class ConfigWatchTests: XCTestCase {
    /// Each row: changes at these times, then the reloads `due(now:)` answers at the probe times.
    func testAReloadWaitsForTheFolderToSettle() {
        let rows: [(name: String, changes: [Double], probes: [(Double, Bool)])] = [
            ("one change", [10], [(10.4, false), (10.5, true), (10.6, false)]),
            ("a burst (deploy of three files)", [10, 10.1, 10.3], [(10.5, false), (10.79, false), (10.8, true)]),
            ("a folder that keeps changing is read by 5 s", Array(stride(from: 10.0, to: 20.0, by: 0.2)), [(14.9, false), (15.0, true)]),
            ("nothing changed", [], [(0, false), (100, false)]),
        ]
        for row in rows {
            var watch = ConfigWatch()
            var probes = row.probes[...]
            for change in row.changes {
                while let probe = probes.first, probe.0 < change {
                    XCTAssertEqual(watch.due(now: probe.0), probe.1, "\(row.name) at \(probe.0)")
                    probes.removeFirst()
                }
                _ = watch.changed(at: change)
            }
            for probe in probes { XCTAssertEqual(watch.due(now: probe.0), probe.1, "\(row.name) at \(probe.0)") }
        }
    }

    func testTheDeadlineFollowsTheLastChange() {
        var watch = ConfigWatch()
        XCTAssertNil(watch.deadline)
        XCTAssertEqual(watch.changed(at: 1), 1.5)
        XCTAssertEqual(watch.changed(at: 1.2), 1.7)
        XCTAssertTrue(watch.isPending)
        XCTAssertTrue(watch.due(now: 1.7))
        XCTAssertFalse(watch.isPending)
    }
}
