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
            XCTAssertEqual(report.status, 2, "CRITICAL, as monitoring plugins say it: " + report.stdout + report.stderr)
            XCTAssertTrue(report.stdout.contains("config-problems: 1\n"), report.stdout)
            XCTAssertTrue(report.stdout.hasSuffix("health: failing closed\n"), report.stdout)
        }
    }

    /// What an agent that is not the kiosk's user reads: `porthole status --json` on the bus, and
    /// the status file in Prometheus's text format under the runtime directories, which need no bus.
    func testStatusForMonitorsAsJSONAndAsAStatusFile() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture()
            defer { fixture.tearDown() }
            let runtime = fixture.home.path + "/runtime"
            let unitRuntime = fixture.home.path + "/run-porthole"
            XCTAssertEqual(mkdir(runtime, 0o700), 0)
            XCTAssertEqual(mkdir(unitRuntime, 0o755), 0)
            fixture.extraEnvironment = ["XDG_RUNTIME_DIR": runtime, "RUNTIME_DIRECTORY": unitRuntime]
            fixture.server.route = { request in
                request.path.hasSuffix(".png") ? .body("", mimeType: "image/png")
                    : .html("<title>Two\u{2028}health: ok</title><img src='\(request.path)-shown.png'>")
            }
            let badArgument = try fixture.porthole(["status", "--frobnicate"])
            XCTAssertEqual(badArgument.status, 3, "UNKNOWN")
            XCTAssertTrue(badArgument.stderr.contains("--frobnicate"), badArgument.stderr)
            XCTAssertTrue(badArgument.stderr.contains("usage: porthole status [--json]"), badArgument.stderr)
            XCTAssertEqual(try fixture.porthole(["status", "--json"]).status, 3, "nothing running: UNKNOWN")

            try fixture.start(["--config", fixture.config])
            XCTAssertTrue(try fixture.waitForBus())
            XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/first-shown.png") == 1 }, "the first page is shown")
            // The page's title reaches the status within a second of the page (StatusPublishing).
            var report = try fixture.porthole(["status", "--json"])
            XCTAssertTrue(UI.wait(30) {
                report = (try? fixture.porthole(["status", "--json"])) ?? report
                let object = try? JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any]
                return object?["title"] as? String == "Two\u{2028}health: ok"
            }, report.stdout + report.stderr)
            XCTAssertEqual(report.status, 0, report.stdout + report.stderr)
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any], report.stdout)
            XCTAssertEqual(object["version"] as? String, AboutPorthole.version)
            XCTAssertEqual(object["health"] as? String, "OK")
            XCTAssertEqual(object["title"] as? String, "Two\u{2028}health: ok")
            XCTAssertEqual((object["config"] as? [String: Any])?["sources"] as? [String], [fixture.config])
            XCTAssertTrue(((object["config"] as? [String: Any])?["digest"] as? String ?? "").hasPrefix("sha256:"), report.stdout)
            XCTAssertNotNil(object["counters"] as? [String: Int], report.stdout)

            let text = try fixture.porthole(["status"])
            XCTAssertEqual(text.stdout.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("health:") }, ["health: ok"], text.stdout)
            XCTAssertTrue(text.stdout.contains("title: Two\\u{2028}health: ok\n"), text.stdout)

            for path in [runtime + "/porthole/status.prom", unitRuntime + "/status.prom"] {
                var file = ""
                XCTAssertTrue(UI.wait(30) {
                    file = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
                    return file.contains("porthole_info{version=\"\(AboutPorthole.version)\"")
                }, path + ": " + file)
                XCTAssertTrue(file.contains("\nporthole_health 0\n"), file)
                XCTAssertFalse(file.contains("Two"), "no title in the metrics")
                var info = stat()
                XCTAssertEqual(stat(path, &info), 0)
                XCTAssertEqual(info.st_mode & 0o777, 0o644, "readable by node_exporter's user")
            }
            fixture.browser?.stop()
            XCTAssertFalse(FileManager.default.fileExists(atPath: unitRuntime + "/status.prom"), "no stale status once the browser ends")
        }
    }

    /// The profile's data directory on a read-only file system and its cache on a nearly full
    /// one (tmpfs mounts in a mount namespace of the browser's own): both are said in the log,
    /// and `porthole status` is a WARNING naming them, where WebKit's writes used to fail quietly.
    func testAReadOnlyOrFullProfileIsSaid() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture()
            defer { fixture.tearDown() }
            let data = fixture.home.path + "/data", cache = fixture.home.path + "/cache"
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
            let probe = try Subprocess.run("/usr/bin/unshare", ["-m", "true"])
            guard probe.status == 0 else { throw XCTSkip("needs a mount namespace (unshare -m): \(probe.stderr)") }
            let script = #"mount -t tmpfs -o ro,size=1m tmpfs "$1" && mount -t tmpfs -o size=1m tmpfs "$2" && shift 2 && exec "$@""#
            fixture.browser = try Subprocess("/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, "sh", data, cache,
                                                                  BuildProducts.porthole, "--config", fixture.config],
                                             environment: fixture.environment)
            XCTAssertTrue(try fixture.waitForBus())
            XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/first") >= 1 }, "pages still load")
            var report = try fixture.porthole(["status"])
            XCTAssertTrue(UI.wait(30) {
                report = (try? fixture.porthole(["status"])) ?? report
                return report.stdout.contains("health: cannot write")
            }, report.stdout + report.stderr)
            XCTAssertEqual(report.status, 1, "WARNING: " + report.stdout)
            XCTAssertTrue(report.stdout.contains("cannot write the profile at \(data)/porthole: Read-only file system"), report.stdout)
            XCTAssertTrue(report.stdout.contains("the disk under the profile at \(cache)/porthole is almost full: "), report.stdout)
            fixture.browser?.stop()
            let log = fixture.browser?.stderr ?? ""
            XCTAssertTrue(log.contains("cannot write the profile at \(data)/porthole: Read-only file system"), log)
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

    /// Chrome re-reads its policy folder when it changes; so does Porthole (GFileMonitor,
    /// debounced by ConfigWatch), without SIGHUP or reload-config.
    func testAChangedChromePolicyFolderIsReadWithoutAReloadCommand() throws {
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
            _ = fixture.home.write("config/porthole/porthole.conf", try String(contentsOfFile: fixture.config, encoding: .utf8))
            let page = "http://library.example/catalogue"
            try fixture.start([])
            XCTAssertTrue(try fixture.waitForBus())
            XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/first-shown.png") == 1 }, "the first page is shown")
            XCTAssertEqual(try fixture.porthole([page]).status, 0)
            try fixture.sync()
            XCTAssertTrue(UI.wait(30) { ((try? fixture.porthole(["status"]))?.stdout ?? "").contains("refusals: 1\n") }, "refused before")

            // Written the way deploy tools do: a new file renamed over the old one.
            _ = policies.write("managed/.porthole.json.new", #"{"URLBlocklist": ["*"], "URLAllowlist": ["library.example"]}"#)
            XCTAssertEqual(rename(policies.path + "/managed/.porthole.json.new", policies.path + "/managed/porthole.json"), 0)
            // The reload is logged by the browser; wait for the journal-free sign: the page loads.
            XCTAssertTrue(UI.wait(30) {
                _ = try? fixture.porthole([page])
                return proxy.count(path: "/catalogue", host: "library.example") >= 1
            }, "after the folder changed the Chrome allowlist lets the page load")
        }
    }
}
