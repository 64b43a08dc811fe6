// `porthole status`: what the events make of the status, its D-Bus form, and when a monitor worries.
import CGLib
import Foundation
import XCTest
@testable import PortholeCore

final class BrowserStatusTests: XCTestCase {
    func testStatusFollowsThePageAndTheRefusalsAndCountsCrashes() {
        var status = BrowserStatus(startedAt: 1000)
        status.configurationLoaded(files: ["/etc/porthole/porthole.conf"], problems: 0, kiosk: true)
        let school = ShownPage(uri: "https://school.example/", url: "https://school.example/")
        let games = ShownPage(uri: "porthole://blocked/1", url: "https://games.example/x")
        let down = ShownPage(uri: "https://school.example/down", url: "https://school.example/down", isErrorPage: true)
        let one = refusals(("https://games.example/", "blocked by *"))
        let two = refusals(("https://games.example/", "blocked by *"), ("https://games.example/x", "blocked by *"))
        enum Step { case follow(ShownPage, String?, RefusalLog), record(StatusEvent) }
        let rows: [(Step, Int, (inout BrowserStatus) -> Void)] = [
            (.follow(ShownPage(), nil, RefusalLog()), 1001, { _ in }),
            (.follow(school, nil, RefusalLog()), 1002, { $0.url = "https://school.example/" }),
            (.follow(school, "School", RefusalLog()), 1003, { $0.title = "School" }),
            (.follow(school, "School", one), 1004,
             { $0.refusals = 1; $0.lastRefusal = "https://games.example/ (blocked by *)"; $0.lastRefusalAt = 1004 }),
            (.follow(school, "School", one), 1005, { _ in }),
            // The Blocked page replaced the page: the status names the URL it stands for.
            (.follow(games, "School", two), 1006,
             { $0.refusals = 2; $0.lastRefusal = "https://games.example/x (blocked by *)"; $0.lastRefusalAt = 1006; $0.url = "https://games.example/x" }),
            (.follow(down, "School", two), 1007, { $0.url = "https://school.example/down"; $0.errorPageSince = 1007 }),
            (.follow(down, "School", two), 1010, { _ in }),
            (.record(.crashRecovered), 1011, { $0.crashRecoveries = 1; $0.lastCrashAt = 1011 }),
            (.record(.hangEnded), 1011, { $0.hangs = 1; $0.lastHangAt = 1011 }),
            (.record(.visitorSessionStarted), 1011, { $0.visitorSessions = 1; $0.lastVisitorSessionAt = 1011 }),
            (.follow(ShownPage(uri: down.uri, url: down.url), "School", two), 1012, { $0.errorPageSince = nil }),
        ]
        var expected = status
        for (step, now, change) in rows {
            switch step {
            case .follow(let page, let title, let log): status.follow(page, title: title, refusals: log, at: now)
            case .record(let event): status.record(event, at: now)
            }
            change(&expected)
            XCTAssertEqual(status, expected, "\(step) at \(now)")
        }
    }

    /// Page events' changes wait and go out together; a configuration or profile change goes out
    /// at once with whatever was waiting; a wait that ends with nothing waiting publishes nothing.
    func testPageEventsArePublishedTogetherAndTheRestAtOnce() {
        enum Input { case changed, due, publishNow }
        let wait = StatusPublishing.Command.wait(milliseconds: StatusPublishing.delayMilliseconds)
        let rows: [(Input, [StatusPublishing.Command], Bool)] = [
            (.due, [], false),                                  // a stray wake-up
            (.changed, [wait], true),                           // the navigation starts
            (.changed, [], true),                               // committed, title, progress, finished
            (.changed, [], true),
            (.due, [.publish], false),                          // one publication for all of them
            (.due, [], false),
            (.publishNow, [.publish], false),                   // a configuration reload, nothing waiting
            (.changed, [wait], true),
            (.publishNow, [.cancelWait, .publish], false),      // the reload takes the page's change with it
            (.due, [], false),
            (.changed, [wait], true),                           // the next page event waits again
        ]
        var publishing = StatusPublishing()
        for (index, (input, commands, waiting)) in rows.enumerated() {
            switch input {
            case .changed: XCTAssertEqual(publishing.changed(), commands, "row \(index)")
            case .due: XCTAssertEqual(publishing.due(), commands, "row \(index)")
            case .publishNow: XCTAssertEqual(publishing.publishNow(), commands, "row \(index)")
            }
            XCTAssertEqual(publishing.waiting, waiting, "row \(index)")
        }
        XCTAssertLessThanOrEqual(StatusPublishing.delayMilliseconds, 1_000, "a monitor reads the page's status within a second")
    }

    func testStatusSurvivesItsDBusForm() throws {
        var status = BrowserStatus(startedAt: 1_700_000_000)
        status.configurationLoaded(files: ["/etc/porthole/porthole.conf", "/etc/porthole/porthole.conf.d/10-sites.conf"], problems: 2, kiosk: true)
        status.follow(ShownPage(uri: "porthole://start/", url: "porthole://start/"), title: "Porthole", refusals: RefusalLog(), at: 1_700_000_001)
        status.follow(ShownPage(url: "https://x.example/"), title: "Porthole", refusals: refusals(("https://x.example/", "not approved")),
                      at: 1_700_000_002)
        status.follow(ShownPage(url: "https://y.example/", isErrorPage: true), title: "Porthole",
                      refusals: refusals(("https://x.example/", "not approved")), at: 1_700_000_003)
        status.record(.crashRecovered, at: 1_700_000_004)
        status.record(.hangEnded, at: 1_700_000_005)
        status.record(.visitorSessionStarted, at: 1_700_000_006)
        status.version = "1.2.3"
        status.configDigest = "sha256:ab"
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
        let school = ShownPage(uri: "https://school.example/", url: "https://school.example/")
        status.follow(school, title: nil, refusals: RefusalLog(), at: 10)
        let healthy = StatusReport.render(status, now: 100, maximumErrorSeconds: 300)
        XCTAssertEqual(healthy.status, 0)
        XCTAssertEqual(healthy.lines, ["version: ", "url: https://school.example/", "title: ", "kiosk: false", "uptime: 100",
                                       "config-files: /etc/porthole/porthole.conf", "config-digest: ", "config-problems: 0",
                                       "failing-closed: false", "visitor-sessions: 0", "refusals: 0", "crash-recoveries: 0", "hangs: 0",
                                       "last-refusal: ", "error-page-for: 0", "sandbox: ", "health: ok"])
        status.follow(ShownPage(uri: school.uri, url: school.url, isErrorPage: true), title: nil, refusals: RefusalLog(), at: 100)
        XCTAssertEqual(StatusReport.render(status, now: 400, maximumErrorSeconds: 300).status, 0, "exactly the limit is still fine")
        let stuck = StatusReport.render(status, now: 401, maximumErrorSeconds: 300)
        XCTAssertEqual(stuck.status, 1, "WARNING: the site may come back")
        XCTAssertEqual(stuck.lines.last, "health: error page for 301 s")
        status.configurationLoaded(files: [], problems: 3, kiosk: false)
        XCTAssertEqual(StatusReport.render(status, now: 401, maximumErrorSeconds: 300).lines.last, "health: failing closed, error page for 301 s")
    }

    /// The monitoring-plugin convention (Nagios plugin API, "Plugin Return Codes"): 0 OK,
    /// 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
    func testHealthFollowsTheMonitoringPluginCodes() {
        typealias Row = (problems: Int, errorSince: Int?, now: Int, health: StatusHealth, reasons: [String], line: UInt)
        let rows: [Row] = [
            (0, nil, 1000, .ok, [], #line),
            (0, 700, 1000, .ok, [], #line),                       // exactly 300 s: still fine
            (0, 699, 1000, .warning, ["error page for 301 s"], #line),
            (2, nil, 1000, .critical, ["failing closed"], #line),
            (1, 0, 1000, .critical, ["failing closed", "error page for 1000 s"], #line),
            (0, 2000, 1000, .ok, [], #line),                      // a clock stepped back
        ]
        for row in rows {
            var status = BrowserStatus(startedAt: 0)
            status.configurationLoaded(files: [], problems: row.problems, kiosk: true)
            status.errorPageSince = row.errorSince
            let answer = StatusReport.health(status, now: row.now, maximumErrorSeconds: 300)
            XCTAssertEqual(answer.health, row.health, line: row.line)
            XCTAssertEqual(answer.reasons, row.reasons, line: row.line)
            XCTAssertEqual(StatusReport.render(status, now: row.now, maximumErrorSeconds: 300).status, row.health.rawValue, line: row.line)
        }
        XCTAssertEqual([StatusHealth.ok, .warning, .critical, .unknown].map(\.rawValue), [0, 1, 2, 3])
    }

    /// A title holding U+2028 made a line-splitting parser read two `health: ok` lines.
    func testTextValuesStayOnTheirLine() {
        let rows: [(String, String, UInt)] = [
            ("School", "School", #line),
            ("a\u{2028}health: ok", "a\\u{2028}health: ok", #line),
            ("a\u{2029}b", "a\\u{2029}b", #line),
            ("a\nhealth: ok", "a\\nhealth: ok", #line),
            ("a\rb\tc", "a\\rb\\tc", #line),
            ("a\u{85}b\u{0B}c\u{0C}d\u{1E}e\u{7F}", "a\\u{85}b\\u{B}c\\u{C}d\\u{1E}e\\u{7F}", #line),  // str.splitlines breaks at these
            ("back\\slash", "back\\\\slash", #line),
            ("Écoles 学校", "Écoles 学校", #line),
        ]
        for (title, expected, line) in rows {
            XCTAssertEqual(StatusReport.escapedLine(title), expected, line: line)
            var status = BrowserStatus(startedAt: 0)
            status.title = title
            let text = StatusReport.render(status, now: 0, maximumErrorSeconds: 300).lines.joined(separator: "\n")
            XCTAssertEqual(text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("health:") }.count, 1, line: line)
            XCTAssertEqual(text.split(whereSeparator: \.isNewline).count, 17, line: line)
        }
    }

    func testJSONCarriesEverythingAMonitorAsksFor() throws {
        var status = BrowserStatus(startedAt: 1000)
        status.version = "1.2.3"
        status.configurationLoaded(files: ["/etc/porthole/porthole.conf", "/etc/porthole/porthole.conf.d/10 \"sites\".conf"], problems: 0,
                                   kiosk: true, digest: "sha256:00ff")
        let school = ShownPage(uri: "https://school.example/", url: "https://school.example/")
        let title = "Line\u{2028}health: ok \"quoted\" \u{1}"
        status.follow(school, title: title, refusals: RefusalLog(), at: 1001)
        status.follow(school, title: title, refusals: refusals(("https://games.example/", "blocked by *")), at: 1002)
        status.record(.crashRecovered, at: 1003)
        status.record(.hangEnded, at: 1003)
        status.record(.visitorSessionStarted, at: 1004)
        let json = StatusReport.json(status, now: 1100, maximumErrorSeconds: 300)
        XCTAssertFalse(json.contains("\u{2028}"), "U+2028 is escaped, not raw")
        XCTAssertTrue(json.contains(#"Line\u2028health"#), json)
        XCTAssertFalse(json.contains("\n"), "one line")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], json)
        XCTAssertEqual(object["version"] as? String, "1.2.3")
        XCTAssertEqual(object["health"] as? String, "OK")
        XCTAssertEqual(object["failing_closed"] as? Bool, false)
        XCTAssertEqual(object["kiosk"] as? Bool, true)
        XCTAssertEqual(object["url"] as? String, "https://school.example/")
        XCTAssertEqual(object["title"] as? String, "Line\u{2028}health: ok \"quoted\" \u{1}")
        XCTAssertEqual(object["uptime_seconds"] as? Int, 100)
        XCTAssertTrue(object["error_page_since"] is NSNull)
        let config = try XCTUnwrap(object["config"] as? [String: Any])
        XCTAssertEqual(config["digest"] as? String, "sha256:00ff")
        XCTAssertEqual(config["sources"] as? [String], status.configFiles)
        let counters = try XCTUnwrap(object["counters"] as? [String: Int])
        XCTAssertEqual(counters, ["visitor_sessions": 1, "refusals": 1, "crashes": 1, "hangs": 1])
        let last = try XCTUnwrap(object["last"] as? [String: Any])
        XCTAssertEqual(last["refusal"] as? Int, 1002)
        XCTAssertEqual(last["crash"] as? Int, 1003)
        XCTAssertEqual(last["hang"] as? Int, 1003)
        XCTAssertEqual(last["visitor_session"] as? Int, 1004)
    }

    /// The text exposition format (Prometheus, "Exposition formats", text format 0.0.4): `# HELP`
    /// and `# TYPE` before each metric, label values with `\\`, `\"` and `\n` escaped.
    func testStatusFileIsPrometheusTextFormat() {
        var status = BrowserStatus(startedAt: 1000)
        status.version = "1.2\"3\\\n"
        status.configurationLoaded(files: [], problems: 1, kiosk: true, digest: "sha256:00ff")
        status.follow(ShownPage(url: "https://games.example/"), title: nil, refusals: refusals(("https://games.example/", "x")), at: 1002)
        let text = StatusReport.prometheus(status, now: 1100, maximumErrorSeconds: 300)
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertTrue(text.hasSuffix("\n"))
        XCTAssertEqual(lines.filter { !$0.hasPrefix("#") }, [
            #"porthole_info{version="1.2\"3\\\n",config_digest="sha256:00ff",kiosk="true"} 1"#,
            "porthole_health 2", "porthole_failing_closed 1", "porthole_config_problems 1",
            "porthole_start_time_seconds 1000", "porthole_status_time_seconds 1100",
            "porthole_visitor_sessions_total 0", "porthole_refusals_total 1", "porthole_crashes_total 0", "porthole_hangs_total 0",
            "porthole_last_refusal_timestamp_seconds 1002", "porthole_last_crash_timestamp_seconds 0",
            "porthole_last_hang_timestamp_seconds 0", "porthole_last_visitor_session_timestamp_seconds 0",
            "porthole_error_page_since_timestamp_seconds 0", "porthole_sandboxed 0", "porthole_profile_writable 1",
        ])
        for (index, line) in lines.enumerated() where !line.hasPrefix("#") {
            let name = String(line.prefix { $0 != "{" && $0 != " " })
            XCTAssertTrue(lines[index - 2].hasPrefix("# HELP \(name) "), line)
            XCTAssertTrue(lines[index - 1] == "# TYPE \(name) counter" || lines[index - 1] == "# TYPE \(name) gauge", line)
            XCTAssertEqual(name.hasSuffix("_total"), lines[index - 1].hasSuffix("counter"), "counters end in _total: \(name)")
        }
    }

    func testStatusFileGoesUnderTheRuntimeDirectories() {
        let rows: [([String: String], [String], UInt)] = [
            ([:], [], #line),
            (["XDG_RUNTIME_DIR": "/run/user/1000"], ["/run/user/1000/porthole/status.prom"], #line),
            (["XDG_RUNTIME_DIR": "relative"], [], #line),
            (["XDG_RUNTIME_DIR": "/run/user/1000", "RUNTIME_DIRECTORY": "/run/porthole"],
             ["/run/user/1000/porthole/status.prom", "/run/porthole/status.prom"], #line),
            (["RUNTIME_DIRECTORY": "/run/porthole:/run/other"], ["/run/porthole/status.prom"], #line),
        ]
        for (environment, expected, line) in rows {
            XCTAssertEqual(StatusFileLocation.paths(environment: environment), expected, line: line)
        }
    }

    func testConfigDigestChangesWithAnyByteOrFile() {
        let a = StatusReport.configDigest([("/etc/porthole/porthole.conf", Array("[Sites]\nA=a.example\n".utf8))])
        XCTAssertTrue(a.hasPrefix("sha256:") && a.count == 7 + 64, a)
        XCTAssertEqual(a, StatusReport.configDigest([("/etc/porthole/porthole.conf", Array("[Sites]\nA=a.example\n".utf8))]))
        XCTAssertNotEqual(a, StatusReport.configDigest([("/etc/porthole/porthole.conf", Array("[Sites]\nA=b.example\n".utf8))]))
        XCTAssertNotEqual(a, StatusReport.configDigest([("/etc/porthole/other.conf", Array("[Sites]\nA=a.example\n".utf8))]))
        XCTAssertNotEqual(StatusReport.configDigest([("/a", Array("xy".utf8)), ("/b", [])]),
                          StatusReport.configDigest([("/a", Array("x".utf8)), ("/b", Array("y".utf8))]))
        XCTAssertEqual(StatusReport.configDigest([]), "")
    }

    /// A read-only or nearly full disk under the profile: WebKit's writes fail without a word.
    func testProfileProblemsAreNamedAndMakeAWarning() {
        let mib: UInt64 = 1 << 20
        let rows: [([ProfileProbe], [String], UInt)] = [
            ([ProfileProbe(path: "/home/k/.local/share/porthole", freeBytes: 10_000 * mib)], [], #line),
            ([ProfileProbe(path: "/home/k/.local/share/porthole", freeBytes: 64 * mib)], [], #line),
            ([ProfileProbe(path: "/home/k/.cache/porthole", freeBytes: 63 * mib)],
             ["the disk under the profile at /home/k/.cache/porthole is almost full: 63 MiB free"], #line),
            ([ProfileProbe(path: "/home/k/.local/share/porthole", unwritable: "Read-only file system")],
             ["cannot write the profile at /home/k/.local/share/porthole: Read-only file system"], #line),
            ([ProfileProbe(path: "/d", unwritable: "No space left on device", freeBytes: 0), ProfileProbe(path: "/c", freeBytes: nil)],
             ["cannot write the profile at /d: No space left on device"], #line),
        ]
        for (probes, expected, line) in rows {
            XCTAssertEqual(ProfileCheck.problems(probes), expected, line: line)
        }
        var status = BrowserStatus(startedAt: 0)
        status.profileProblems = ["cannot write the profile at /d: Read-only file system"]
        XCTAssertEqual(StatusReport.health(status, now: 0, maximumErrorSeconds: 300).health, .warning)
        XCTAssertTrue(StatusReport.prometheus(status, now: 0, maximumErrorSeconds: 300).contains("\nporthole_profile_writable 0\n"))
        XCTAssertEqual(StatusReport.render(status, now: 0, maximumErrorSeconds: 300).lines.last,
                       "health: cannot write the profile at /d: Read-only file system")
        status.configurationLoaded(files: [], problems: 1, kiosk: false)
        XCTAssertEqual(StatusReport.health(status, now: 0, maximumErrorSeconds: 300).health, .critical, "failing closed stays CRITICAL")
        let variant = g_variant_ref_sink(status.variant())!
        defer { g_variant_unref(variant) }
        XCTAssertEqual(BrowserStatus(variant: variant)?.profileProblems, status.profileProblems)
    }

    func testPagesRunningWithoutTheSandboxAutoWantedAreAWorry() {
        var status = BrowserStatus(startedAt: 0)
        status.sandbox = "on"
        XCTAssertEqual(StatusReport.render(status, now: 1, maximumErrorSeconds: 300).status, 0)
        status.sandbox = "off (pages run without the web process sandbox: No permissions to create new namespace)"
        status.sandboxMissing = true
        let report = StatusReport.render(status, now: 1, maximumErrorSeconds: 300)
        XCTAssertEqual(report.status, 1, "WARNING")
        XCTAssertTrue(report.lines.contains("sandbox: off (pages run without the web process sandbox: No permissions to create new namespace)"))
        XCTAssertEqual(report.lines.last, "health: web processes not sandboxed")
        let variant = g_variant_ref_sink(status.variant())!
        defer { g_variant_unref(variant) }
        XCTAssertEqual(BrowserStatus(variant: variant), status)
    }
}

/// A refusal log holding `refusals` (URL, reason), oldest first.
private func refusals(_ refusals: (String, String)...) -> RefusalLog {
    var log = RefusalLog()
    for (uri, reason) in refusals { log.append(WindowRefusal(uri: uri, reason: reason)) }
    return log
}
