// `[Browser] unresponsive-timeout=`: how long a hung page may stay before its web process is ended.
import XCTest
@testable import PortholeCore

final class UnresponsiveTimeoutTests: XCTestCase {
    private var directory: TemporaryConfigDirectory!

    override func setUpWithError() throws { directory = try TemporaryConfigDirectory() }
    override func tearDown() { directory.remove() }

    private func rules(_ browser: String, kiosk: Bool) throws -> (BrowsingRules, [String]) {
        let text = "[Browser]\n\(browser)\n[Kiosk]\nenabled=\(kiosk)\n[Sites]\nExample=example.com\n"
        let file = try directory.write("porthole.conf", text)
        let result = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: standInFilterValidator)
        return (BrowsingRules(configuration: result.effectiveConfiguration), result.problems.map { $0.description.replacingOccurrences(of: file, with: "F") })
    }

    func testKioskPagesAreWatchedByDefaultAndDeskPagesAreNot() throws {
        let rows: [(String, Bool, Double?)] = [
            ("", true, 15), ("", false, nil),
            ("unresponsive-timeout=", true, 15), ("unresponsive-timeout=", false, nil),
            ("unresponsive-timeout=30", true, 30), ("unresponsive-timeout=30", false, 30),
            ("unresponsive-timeout=0", true, nil), ("unresponsive-timeout=0", false, nil),
        ]
        for (line, kiosk, expected) in rows {
            let (rules, problems) = try rules(line, kiosk: kiosk)
            XCTAssertEqual(problems, [], line)
            XCTAssertEqual(rules.unresponsiveTimeout, expected, "\(line) kiosk=\(kiosk)")
        }
    }

    func testANegativeOrWordyTimeoutIsAProblem() throws {
        XCTAssertEqual(try rules("unresponsive-timeout=-1", kiosk: true).1, ["F:2: Browser/unresponsive-timeout: out of range: expected 0 or more"])
        XCTAssertEqual(try rules("unresponsive-timeout=soon", kiosk: true).1, ["F:2: Browser/unresponsive-timeout: expected a whole number of seconds"])
    }
}
