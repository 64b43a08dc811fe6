// What an admin deploys around the browser, seen from the running porthole: the proxy in
// [Network], drop-in files, Chrome policy files and `porthole status`.
import Foundation
import PortholeCore
import TestSupport
import XCTest

final class DeploymentTests: XCTestCase {
    func testConfiguredProxyCarriesThePagesRequests() throws {
        try MainActor.assumeIsolated {
            let proxy = TestServer()
            defer { proxy.stop() }
            proxy.route = { _ in .html("<title>Through the proxy</title>") }
            // The site has a real host name: only the proxy can answer for it.
            let fixture = try BrowserProcessFixture(extraConfig: """
                School=http://school.example/through-proxy
                [Network]
                proxy=\(proxy.proxyURI)
                """)
            defer { fixture.tearDown() }
            try fixture.start(["--config", fixture.config, "http://school.example/through-proxy"])
            XCTAssertTrue(UI.wait(30) { proxy.count(path: "/through-proxy", host: "school.example") == 1 },
                          "the page was fetched through [Network] proxy")
        }
    }

    func testStatusAnswersFromAShellWithTheCurrentPageAndRefusals() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture()
            defer { fixture.tearDown() }
            XCTAssertEqual(try fixture.porthole(["status"]).status, 3, "nothing running yet")
            try fixture.start(["--config", fixture.config])
            XCTAssertTrue(try fixture.waitForBus())
            XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/first-shown.png") == 1 }, "the first page is shown")
            // A refused address handed to the running browser; then a second command line to sync on.
            XCTAssertEqual(try fixture.porthole(["https://refused.example/"]).status, 0)
            try fixture.sync()
            var report = try fixture.porthole(["status"])
            XCTAssertTrue(UI.wait(30) {
                report = (try? fixture.porthole(["status"])) ?? report
                return report.stdout.contains("refusals: 1")
            }, report.stdout + report.stderr)
            XCTAssertEqual(report.status, 0, report.stdout + report.stderr)
            let lines = report.stdout.split(separator: "\n").map(String.init)
            XCTAssertTrue(lines.contains("url: https://refused.example/"), "the Blocked page shows: \(report.stdout)")
            XCTAssertTrue(lines.contains("config-files: \(fixture.config)"), report.stdout)
            XCTAssertTrue(lines.contains("failing-closed: false"), report.stdout)
            XCTAssertTrue(lines.contains { $0.hasPrefix("last-refusal: https://refused.example/ (") }, report.stdout)
            XCTAssertTrue(lines.contains("health: ok"), report.stdout)
        }
    }

    func testStatusFailsWhenTheBrowserFailsClosed() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture(extraConfig: "[Browser]\nzoom=huge\n")
            defer { fixture.tearDown() }
            try fixture.start(["--config", fixture.config])
            XCTAssertTrue(try fixture.waitForBus())
            try fixture.sync()
            let report = try fixture.porthole(["status"])
            XCTAssertEqual(report.status, 1, report.stdout + report.stderr)
            XCTAssertTrue(report.stdout.contains("config-problems: 1\n"), report.stdout)
            XCTAssertTrue(report.stdout.hasSuffix("health: failing closed\n"), report.stdout)
        }
    }

    func testChromePolicyChangeAllowsASiteAfterReloadConfig() throws {
        try MainActor.assumeIsolated {
            let proxy = TestServer()
            defer { proxy.stop() }
            proxy.route = { _ in .html("<title>Library</title>") }
            let policies = TemporaryDirectory()
            defer { policies.remove() }
            _ = policies.write("managed/porthole.json", #"{"URLBlocklist": ["*"]}"#)
            let fixture = try BrowserProcessFixture(extraConfig: """
                [Policy]
                chrome-policies=\(policies.path)/managed
                [Network]
                proxy=\(proxy.proxyURI)
                proxy-ignore=127.0.0.1
                """)
            defer { fixture.tearDown() }
            // The user file, so that the browser and `porthole policy check` read the same.
            _ = fixture.home.write("config/porthole/porthole.conf", try String(contentsOfFile: fixture.config, encoding: .utf8))
            let page = "http://library.example/catalogue"
            XCTAssertEqual(try fixture.porthole(["policy", "check", page]).stdout, "blocked\t\(page)\t*\n")
            try fixture.start([])
            XCTAssertTrue(try fixture.waitForBus())
            XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/first-shown.png") == 1 }, "the first page is shown")
            XCTAssertEqual(try fixture.porthole([page]).status, 0)
            try fixture.sync()
            XCTAssertTrue(UI.wait(30) { ((try? fixture.porthole(["status"]))?.stdout ?? "").contains("refusals: 1\n") }, "refused before")

            _ = policies.write("managed/porthole.json", #"{"URLBlocklist": ["*"], "URLAllowlist": ["library.example"]}"#)
            XCTAssertEqual(try fixture.porthole(["policy", "check", page]).stdout, "allowed\t\(page)\tlibrary.example\n")
            let reload = try Subprocess.run("/usr/bin/gapplication", ["action", "dev.porthole.Porthole", "reload-config"],
                                            environment: fixture.environment)
            XCTAssertEqual(reload.status, 0, reload.stderr)
            try fixture.sync()
            XCTAssertEqual(proxy.count(path: "/catalogue", host: "library.example"), 0, "nothing reached the site while it was refused")
            XCTAssertEqual(try fixture.porthole([page]).status, 0)
            XCTAssertTrue(UI.wait(30) { proxy.count(path: "/catalogue", host: "library.example") == 1 },
                          "after reload-config the Chrome allowlist lets the page load")
        }
    }
}
