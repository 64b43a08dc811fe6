// `porthole status`: what the events make of the status, its D-Bus form, and when a monitor worries.
import CGLib
import XCTest
@testable import PortholeCore

final class BrowserStatusTests: XCTestCase {
    func testEventsCountRefusalsCrashesAndErrorPageTime() {
        var status = BrowserStatus(startedAt: 1000)
        status.configurationLoaded(files: ["/etc/porthole/porthole.conf"], problems: 0, kiosk: true)
        let rows: [(StatusEvent, Int, (inout BrowserStatus) -> Void)] = [
            (.loadStarted, 1001, { _ in }),
            (.committed(uri: "https://school.example/"), 1002, { $0.url = "https://school.example/" }),
            (.title("School"), 1003, { $0.title = "School" }),
            (.refused(uri: "https://games.example/", reason: "blocked by *", shown: false), 1004,
             { $0.refusals = 1; $0.lastRefusal = "https://games.example/ (blocked by *)"; $0.lastRefusalAt = 1004 }),
            (.errorPageShown(uri: "https://school.example/down"), 1005, { $0.url = "https://school.example/down"; $0.errorPageSince = 1005 }),
            (.errorPageShown(uri: "https://school.example/down"), 1010, { _ in }),
            (.crashRecovered, 1011, { $0.crashRecoveries = 1 }),
            (.loadStarted, 1012, { $0.errorPageSince = nil }),
        ]
        var expected = status
        for (event, now, change) in rows {
            status.record(event, at: now)
            change(&expected)
            XCTAssertEqual(status, expected, "\(event)")
        }
    }

    func testStatusSurvivesItsDBusForm() throws {
        var status = BrowserStatus(startedAt: 1_700_000_000)
        status.configurationLoaded(files: ["/etc/porthole/porthole.conf", "/etc/porthole/porthole.conf.d/10-sites.conf"], problems: 2, kiosk: true)
        status.record(.committed(uri: "porthole://start/"), at: 1_700_000_001)
        status.record(.title("Porthole"), at: 1_700_000_001)
        status.record(.refused(uri: "https://x.example/", reason: "not approved", shown: true), at: 1_700_000_002)
        status.record(.errorPageShown(uri: "https://y.example/"), at: 1_700_000_003)
        status.record(.crashRecovered, at: 1_700_000_004)
        let variant = g_variant_ref_sink(status.variant())!
        defer { g_variant_unref(variant) }
        XCTAssertEqual(String(cString: g_variant_get_type_string(variant)), "a{sv}")
        XCTAssertEqual(BrowserStatus(variant: variant), status)
        let empty = g_variant_ref_sink(BrowserStatus(startedAt: 5).variant())!
        defer { g_variant_unref(empty) }
        XCTAssertEqual(BrowserStatus(variant: empty), BrowserStatus(startedAt: 5))
    }

    func testMonitorWorriesWhenFailingClosedOrOnAnErrorPageTooLong() {
        var status = BrowserStatus(startedAt: 0)
        status.configurationLoaded(files: ["/etc/porthole/porthole.conf"], problems: 0, kiosk: false)
        status.record(.committed(uri: "https://school.example/"), at: 10)
        let healthy = StatusReport.render(status, now: 100, maximumErrorSeconds: 300)
        XCTAssertEqual(healthy.status, 0)
        XCTAssertEqual(healthy.lines, ["url: https://school.example/", "title: ", "kiosk: false", "uptime: 100",
                                       "config-files: /etc/porthole/porthole.conf", "config-problems: 0", "failing-closed: false",
                                       "refusals: 0", "crash-recoveries: 0", "last-refusal: ", "error-page-for: 0", "sandbox: ", "health: ok"])
        status.record(.errorPageShown(uri: "https://school.example/"), at: 100)
        XCTAssertEqual(StatusReport.render(status, now: 400, maximumErrorSeconds: 300).status, 0, "exactly the limit is still fine")
        let stuck = StatusReport.render(status, now: 401, maximumErrorSeconds: 300)
        XCTAssertEqual(stuck.status, 1)
        XCTAssertEqual(stuck.lines.last, "health: error page for 301 s")
        status.configurationLoaded(files: [], problems: 3, kiosk: false)
        XCTAssertEqual(StatusReport.render(status, now: 401, maximumErrorSeconds: 300).lines.last, "health: failing closed, error page for 301 s")
    }

    func testPagesRunningWithoutTheSandboxAutoWantedAreAWorry() {
        var status = BrowserStatus(startedAt: 0)
        status.sandbox = "on"
        XCTAssertEqual(StatusReport.render(status, now: 1, maximumErrorSeconds: 300).status, 0)
        status.sandbox = "off (pages run without the web process sandbox: No permissions to create new namespace)"
        status.sandboxMissing = true
        let report = StatusReport.render(status, now: 1, maximumErrorSeconds: 300)
        XCTAssertEqual(report.status, 1)
        XCTAssertTrue(report.lines.contains("sandbox: off (pages run without the web process sandbox: No permissions to create new namespace)"))
        XCTAssertEqual(report.lines.last, "health: web processes not sandboxed")
        let variant = g_variant_ref_sink(status.variant())!
        defer { g_variant_unref(variant) }
        XCTAssertEqual(BrowserStatus(variant: variant), status)
    }
}
