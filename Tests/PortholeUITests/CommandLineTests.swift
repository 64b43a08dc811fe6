// The real `porthole` binary: configuration checking, single instance, D-Bus remote control,
// fail-closed start, local files, and `make install`. Each test runs the browser on a private
// session bus with throwaway XDG directories, under the test run's Xvfb display.
import Foundation
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

private func page(_ title: String) -> String {
    "<!DOCTYPE html><html><head><title>\(title)</title></head><body><h1>\(title)</h1></body></html>"
}

/// A server, a private bus, a home directory and a config approving the server.
@MainActor
final class BrowserProcessFixture {
    let server = TestServer()
    let home = TemporaryDirectory()
    let bus: PrivateBus
    var browser: Subprocess?
    let config: String

    init(extraConfig: String = "") throws {
        bus = try PrivateBus()
        // Each page asks for an image once its document is committed: the test's sign that the
        // browser now shows that page (a reload before then would reload the page before it).
        server.route = { request in
            request.path.hasSuffix(".png") ? .body("", mimeType: "image/png")
                : .html(page("Page \(request.path)") + "<img src='\(request.path)-shown.png'>")
        }
        config = home.write("porthole.conf", """
            [Sites]
            Local=\(server.url("/first"))
            \(extraConfig)
            """)
    }

    /// Added to the bus's environment for the browser and the commands a test runs.
    var extraEnvironment: [String: String] = [:]
    var environment: [String: String] { bus.environment(home: home).merging(extraEnvironment) { $1 } }

    func start(_ arguments: [String]) throws {
        browser = try Subprocess(BuildProducts.porthole, arguments, environment: environment)
    }

    func porthole(_ arguments: [String], timeout: Double = 30) throws -> (status: Int32, stdout: String, stderr: String) {
        try Subprocess.run(BuildProducts.porthole, arguments, environment: environment, timeout: timeout)
    }

    /// Waits until the browser owns its name on the bus (it is the running instance).
    func waitForBus() throws -> Bool {
        try Subprocess.run("/usr/bin/gdbus", ["wait", "--session", "--timeout", "30", "dev.porthole.Porthole"],
                           environment: environment, timeout: 40).status == 0
    }

    /// Returns once the running browser has handled everything sent to it before: a second
    /// `porthole` returns only after the running one has handled its command line.
    func sync() throws {
        XCTAssertEqual(try porthole([]).status, 0)
    }

    /// An X server of the test's own, display :`number`, once it takes connections.
    func startXvfb(_ number: Int) throws -> Subprocess {
        let xvfb = try Subprocess("/usr/bin/Xvfb", [":\(number)", "-screen", "0", "800x600x24", "-nolisten", "tcp"], collectsOutput: false)
        XCTAssertTrue(UI.wait(30) { FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") }, "Xvfb :\(number) runs")
        return xvfb
    }

    func tearDown() {
        browser?.stop()
        bus.stop()
        server.stop()
        home.remove()
    }
}

final class CommandLineTests: XCTestCase {
    func testCheckConfigExitsZeroForAGoodFileAndOneWithEveryProblem() throws {
        try MainActor.assumeIsolated {
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let good = dir.write("good.conf", "[Sites]\nApple=apple.com\n[Policy]\nblock=*\n")
            let bad = dir.write("bad.conf", """
                [Sites]
                Apple=apple.com
                [Policy]
                allow=example.com:0
                [Browser]
                javascript=maybe
                [Nonsense]
                """)
            let env = ["XDG_CONFIG_HOME": dir.path + "/none"]
            let ok = try Subprocess.run(BuildProducts.porthole, ["--check-config", good], environment: env)
            XCTAssertEqual(ok.status, 0, ok.stderr)
            XCTAssertTrue(ok.stdout.contains("\(good): ok"), ok.stdout)

            let problems = try Subprocess.run(BuildProducts.porthole, ["--check-config", bad], environment: env)
            XCTAssertEqual(problems.status, 1)
            let lines = problems.stderr.split(separator: "\n").map(String.init)
            XCTAssertTrue(lines.contains { $0.hasPrefix("\(bad):4: Policy/allow: ") }, problems.stderr)
            XCTAssertTrue(lines.contains { $0.hasPrefix("\(bad):6: Browser/javascript: ") }, problems.stderr)
            XCTAssertTrue(lines.contains { $0.hasPrefix("\(bad):7: ") && $0.contains("Nonsense") }, problems.stderr)

            let missing = try Subprocess.run(BuildProducts.porthole, ["--check-config", dir.path + "/missing.conf"], environment: env)
            XCTAssertEqual(missing.status, 1)
            XCTAssertTrue(missing.stderr.contains("missing.conf"), missing.stderr)
        }
    }

    func testPolicyCheckAnswersAsTheChromeDocumentationSays() throws {
        try MainActor.assumeIsolated {
            // Examples from https://www.chromium.org/administrators/url-blocklist-filter-format
            let result = try Subprocess.run(BuildProducts.porthole, [
                "policy", "check", "--block", "example.com", "--block", "*:8080", "--allow", "mail.example.com",
                "http://example.com/", "https://sub.example.com/x", "http://mail.example.com/inbox", "http://other.test:8080/",
                "http://example.com.evil.test/", "--allow", "bad filter:0",
            ])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stdout, """
                blocked\thttp://example.com/\texample.com
                blocked\thttps://sub.example.com/x\texample.com
                allowed\thttp://mail.example.com/inbox\tmail.example.com
                blocked\thttp://other.test:8080/\t*:8080
                allowed\thttp://example.com.evil.test/\t-

                """)
            XCTAssertTrue(result.stderr.contains("bad filter:0"), "an invalid filter is reported: \(result.stderr)")

            let stdin = try Subprocess.run(BuildProducts.porthole, ["policy", "check", "--allow", "apple.com", "--block", "*"],
                                           stdin: "https://www.apple.com/\nhttps://apple.com.evil.example/\n")
            XCTAssertEqual(stdin.stdout, "allowed\thttps://www.apple.com/\tapple.com\nblocked\thttps://apple.com.evil.example/\t*\n")
            let unusable = try Subprocess.run(BuildProducts.porthole, ["policy", "check", "--allow"])
            XCTAssertEqual(unusable.status, 2)
        }
    }

    /// `porthole policy check < urls | head -1`: the reader goes away after one line; the
    /// checker stops quietly instead of dying of SIGPIPE (status 141 in the shell). SIGPIPE is
    /// reset to its default for it, as in a login shell, whatever the test process inherited.
    func testPolicyCheckStopsQuietlyWhenItsReaderCloses() throws {
        try MainActor.assumeIsolated {
            let script = """
                urls=$(mktemp); trap 'rm -f "$urls"' EXIT
                printf 'https://www.apple.com/\n%.0s' $(seq 200000) > "$urls"
                env --default-signal=PIPE "$0" policy check --allow apple.com --block '*' < "$urls" | head -n 1
                echo "status ${PIPESTATUS[0]}"
                """
            let result = try Subprocess.run("/bin/bash", ["-c", script, BuildProducts.porthole])
            XCTAssertEqual(result.stdout, "allowed\thttps://www.apple.com/\tapple.com\nstatus 0\n")
            XCTAssertEqual(result.stderr, "")
        }
    }

    func testCommandLinesThatCannotMeanOneThingAreRefused() throws {
        try MainActor.assumeIsolated {
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let good = dir.write("good.conf", "[Sites]\nApple=apple.com\n")
            let bad = dir.write("bad.conf", "[Sites]\nApple=apple.com\nZone=[fe80::1%eth0]\nPort=http://apple.com:0/\n")
            let environment = ["HOME": dir.path, "XDG_CONFIG_HOME": dir.path + "/config"]
            let both = try Subprocess.run(BuildProducts.porthole, ["--check-config", good, bad], environment: environment)
            XCTAssertEqual(both.status, 1)
            XCTAssertEqual(both.stdout, "\(good): ok\n")
            XCTAssertTrue(both.stderr.contains("\(bad):3: Sites/Zone"), both.stderr)
            XCTAssertTrue(both.stderr.contains("\(bad):4: Sites/Port"), both.stderr)

            let twice = try Subprocess.run(BuildProducts.porthole, ["--config", good, "--config=\(bad)", "--check-config"], environment: environment)
            XCTAssertEqual(twice.status, 2)
            XCTAssertEqual(twice.stderr, "porthole: --config can be given only once\n")

            let version = try Subprocess.run(BuildProducts.porthole, ["--version", "extra"], environment: environment)
            XCTAssertEqual(version.status, 2)
            XCTAssertEqual(version.stdout, "")

            // A FIFO has no end until a writer closes it; it is refused, not waited on.
            let fifo = dir.path + "/fifo.conf"
            XCTAssertEqual(mkfifo(fifo, 0o600), 0)
            let check = try Subprocess.run(BuildProducts.porthole, ["--check-config", fifo], environment: environment, timeout: 20)
            XCTAssertEqual(check.status, 1)
            XCTAssertEqual(check.stderr, "\(fifo):0: cannot read: not a regular file\n")
        }
    }

    func testASecondPortholeHandsItsURLToTheRunningWindow() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture()
            defer { fixture.tearDown() }
            try fixture.start(["--config", fixture.config])
            XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/first") == 1 }, "the first instance opens its home page: \(fixture.browser?.stderr ?? "")")
            let second = try fixture.porthole([fixture.server.url("/second")])
            XCTAssertEqual(second.status, 0, second.stderr)
            XCTAssertTrue(UI.wait(15) { fixture.server.count(path: "/second") == 1 }, "the running window loads the URL")
            XCTAssertTrue(fixture.browser?.isRunning ?? false, "the first instance still runs")
            // The second process starts its own page before it learns that a Porthole runs
            // already; it must drop that load, not fetch the page a second time. A third URL,
            // handed over the same way, is the sign that everything before it has arrived.
            XCTAssertEqual(try fixture.porthole([fixture.server.url("/third")]).status, 0)
            XCTAssertTrue(UI.wait(15) { fixture.server.count(path: "/third") == 1 })
            XCTAssertEqual(fixture.server.count(path: "/second"), 1, "a process that hands its URL over does not load it itself")
            XCTAssertEqual(fixture.server.count(path: "/third"), 1)
        }
    }

    /// Every Porthole starts loading Mesa's GL driver on another thread as soon as its
    /// configuration is read (issue 26), and a second `porthole URL` exits a few hundred
    /// milliseconds later: exiting while that load ran LLVM's constructors hung or aborted it (2
    /// runs in 150 with both cores busy; 3 of 595 tests in CI). Here the driver is a library
    /// whose constructor takes 2 s (in `LIBGL_DRIVERS_PATH`, where the preload looks first, as
    /// Mesa does) and marks when exit begins: the second process must begin its exit only after
    /// the load, and exit cleanly.
    func testASecondPortholeExitsOnlyAfterTheGLDriverItBeganLoading() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture()
            defer { fixture.tearDown() }
            let drivers = fixture.home.path + "/dri"
            let source = fixture.home.write("slow-driver.c", """
                #include <stdio.h>
                #include <stdlib.h>
                #include <unistd.h>
                static void mark(const char *what) {
                    FILE *file = fopen(getenv("SLOW_DRIVER_MARKS"), "a");
                    if (file) { fprintf(file, "%s\\n", what); fclose(file); }
                }
                static void exiting(void) { mark("exiting"); }
                /* exit runs the newest handler first: this one, as soon as exit begins. */
                __attribute__((constructor)) static void load(void) { atexit(exiting); mark("loading"); sleep(2); mark("loaded"); }
                """)
            try FileManager.default.createDirectory(atPath: drivers, withIntermediateDirectories: true)
            // The toolchain's clang, as the Makefile builds the launcher with.
            let built = try Subprocess.run("/bin/sh", ["-c", "\"$(dirname \"$(readlink -f \"$(command -v swift)\")\")/clang\" -shared -fPIC -o \"$1\" \"$2\"",
                                                       "sh", drivers + "/swrast_dri.so", source])
            XCTAssertEqual(built.status, 0, built.stderr)
            try fixture.start(["--config", fixture.config])
            XCTAssertTrue(try fixture.waitForBus())
            let marks = fixture.home.path + "/marks"
            let environment = fixture.environment.merging(["LIBGL_DRIVERS_PATH": drivers, "SLOW_DRIVER_MARKS": marks]) { $1 }
            let second = try Subprocess.run(BuildProducts.porthole, [fixture.server.url("/second")], environment: environment, timeout: 30)
            XCTAssertEqual(second.status, 0, second.stderr)
            XCTAssertEqual(try String(contentsOfFile: marks, encoding: .utf8), "loading\nloaded\nexiting\n",
                           "the second porthole exited after the driver's load, not during it")
            XCTAssertTrue(UI.wait(15) { fixture.server.count(path: "/second") == 1 }, "the running window loads the URL")
        }
    }

    /// A second `porthole URL` hands the URL over undecided: the running browser decides it with
    /// the running configuration, and only it logs the refusal. The second process decided it
    /// with its own configuration first, and logged the refusal too.
    func testASecondPortholeLeavesTheDecisionToTheRunningOne() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture(extraConfig: "[Policy]\nblock=*\nallow=127.0.0.1\n")
            defer { fixture.tearDown() }
            let own = fixture.home.write("own.conf", "[Sites]\nLocal=\(fixture.server.url("/first"))\n[Policy]\nblock=*\n")
            try fixture.start(["--config", fixture.config])
            XCTAssertTrue(try fixture.waitForBus())
            XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/first-shown.png") == 1 }, "the first instance shows its home page")
            let second = try fixture.porthole(["--config", own, "https://refused.example/"])
            XCTAssertEqual(second.status, 0, second.stderr)
            XCTAssertFalse(second.stderr.contains("refused.example"), "the second process decided the URL itself: \(second.stderr)")
            try fixture.sync()
            fixture.browser?.stop()
            let running = fixture.browser?.stderr ?? ""
            XCTAssertEqual(running.components(separatedBy: "blocked https://refused.example/").count - 1, 1,
                           "the running browser refused it, once: \(running)")
        }
    }

    /// `gapplication action … open-site` has no answer to carry back; an unknown name is said in
    /// the log, with the names that would have worked, instead of nothing at all.
    func testOpenSiteWithAnUnknownNameSaysSo() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture()
            defer { fixture.tearDown() }
            try fixture.start(["--config", fixture.config])
            XCTAssertTrue(try fixture.waitForBus())
            XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/first-shown.png") == 1 })
            let open = try Subprocess.run("/usr/bin/gapplication", ["action", "dev.porthole.Porthole", "open-site", "'Nope'"],
                                          environment: fixture.environment)
            XCTAssertEqual(open.status, 0, open.stderr)
            try fixture.sync()
            fixture.browser?.stop()
            let log = fixture.browser?.stderr ?? ""
            XCTAssertTrue(log.contains("open-site: no site is named \"Nope\" (the sites: Local)"), log)
        }
    }

    /// The X server goes away under the browser: it exits with status 1 (so that its service is
    /// restarted) and says so in the log, where it used to end with Xlib's line alone.
    func testLosingTheDisplaySaysSoAndExitsWithOne() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture()
            defer { fixture.tearDown() }
            let number = 300 + Int(getpid() % 300)
            let xvfb = try fixture.startXvfb(number)
            defer { xvfb.stop() }
            fixture.extraEnvironment = ["DISPLAY": ":\(number)", "WAYLAND_DISPLAY": "", "GDK_BACKEND": "x11"]
            try fixture.start(["--config", fixture.config])
            XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/first-shown.png") == 1 }, "the page is shown")
            xvfb.stop()
            let browser = try XCTUnwrap(fixture.browser)
            XCTAssertTrue(browser.wait(timeout: 30), "the browser ends without its display")
            XCTAssertEqual(browser.status, 1)
            XCTAssertTrue(browser.stderr.contains("lost the display :\(number): exiting with status 1"), browser.stderr)
        }
    }

    /// The environment of each WebKitWebProcess started by `pid` (directly or through bubblewrap).
    private static func webProcessEnvironments(of pid: Int32) -> [[String]] {
        WebProcesses.descendants(of: pid).compactMap { process in
            FileManager.default.contents(atPath: "/proc/\(process)/environ")?.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    func testWithoutAGPUPagesArePaintedOnTheCPUUnlessTheAdminSaysOtherwise() throws {
        try XCTSkipIf(FileManager.default.fileExists(atPath: "/dev/dri"), "this machine has a GPU: auto paints on it")
        let variable = GPUPainting.cpuPaintingVariable + "=1"
        for (setting, expectCPU) in [("", true), ("[Browser]\ngpu-painting=true", false)] {
            try MainActor.assumeIsolated {
                let fixture = try BrowserProcessFixture(extraConfig: setting)
                defer { fixture.tearDown() }
                try fixture.start(["--config", fixture.config])
                XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/first-shown.png") == 1 }, fixture.browser?.stderr ?? "")
                let pid = fixture.browser!.process.processIdentifier
                let environments = Self.webProcessEnvironments(of: pid)
                XCTAssertFalse(environments.isEmpty, "the page's web process is a child of Porthole")
                for environment in environments {
                    XCTAssertEqual(environment.contains(variable), expectCPU, "\(setting.isEmpty ? "auto" : setting): \(environment.filter { $0.hasPrefix("WEBKIT") })")
                }
            }
        }
    }

    func testGApplicationActionsOverDBusDriveTheRunningBrowser() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture(extraConfig: "Other=other.example")
            defer { fixture.tearDown() }
            try fixture.start(["--config", fixture.config])
            XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/first-shown.png") == 1 })
            let gapplication = "/usr/bin/gapplication"
            let reload = try Subprocess.run(gapplication, ["action", "dev.porthole.Porthole", "reload"], environment: fixture.environment)
            XCTAssertEqual(reload.status, 0, reload.stderr)
            XCTAssertTrue(UI.wait(15) { fixture.server.count(path: "/first") == 2 }, "the reload action reloaded the page")
            XCTAssertTrue(UI.wait(15) { fixture.server.count(path: "/first-shown.png") == 2 })

            let list = try Subprocess.run("/usr/bin/gdbus", ["call", "--session", "--dest", "dev.porthole.Porthole",
                                                             "--object-path", "/dev/porthole/Porthole", "--method", "org.gtk.Actions.List"],
                                          environment: fixture.environment)
            for action in ["back", "forward", "home", "open-site", "quit", "reload", "reload-config", "stop"] {
                XCTAssertTrue(list.stdout.contains("'\(action)'"), "\(action) is exported: \(list.stdout)")
            }

            let open = try Subprocess.run(gapplication, ["action", "dev.porthole.Porthole", "open-site", "'Local'"], environment: fixture.environment)
            XCTAssertEqual(open.status, 0, open.stderr)
            XCTAssertTrue(UI.wait(15) { fixture.server.count(path: "/first") == 3 }, "open-site opened the named site")
            XCTAssertTrue(UI.wait(15) { fixture.server.count(path: "/first-shown.png") == 3 })

            fixture.home.write("porthole.conf", "[Sites]\nLocal=\(fixture.server.url("/first"))\n[Policy]\nblock=127.0.0.1/first\n")
            let reloadConfig = try Subprocess.run(gapplication, ["action", "dev.porthole.Porthole", "reload-config"], environment: fixture.environment)
            XCTAssertEqual(reloadConfig.status, 0, reloadConfig.stderr)
            _ = try Subprocess.run(gapplication, ["action", "dev.porthole.Porthole", "reload"], environment: fixture.environment)
            try fixture.sync()
            XCTAssertEqual(fixture.server.count(path: "/first"), 3, "after reload-config the blocked page is not fetched again")

            let quit = try Subprocess.run(gapplication, ["action", "dev.porthole.Porthole", "quit"], environment: fixture.environment)
            XCTAssertEqual(quit.status, 0, quit.stderr)
            XCTAssertTrue(fixture.browser?.wait(timeout: 15) ?? false, "quit ends the browser")
        }
    }

    func testSIGHUPReloadsTheConfigurationForTheNextNavigation() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture()
            defer { fixture.tearDown() }
            try fixture.start(["--config", fixture.config])
            XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/first") == 1 })
            // One path of the approved host is now blocked: after SIGHUP the browser must not fetch it.
            fixture.home.write("porthole.conf", "[Sites]\nLocal=\(fixture.server.url("/first"))\n[Policy]\nblock=127.0.0.1/after\n")
            kill(fixture.browser!.process.processIdentifier, SIGHUP)
            XCTAssertEqual(try fixture.porthole([fixture.server.url("/after")]).status, 0)
            XCTAssertEqual(try fixture.porthole([fixture.server.url("/still-allowed")]).status, 0)
            XCTAssertTrue(UI.wait(15) { fixture.server.count(path: "/still-allowed") == 1 })
            XCTAssertEqual(fixture.server.count(path: "/after"), 0, "the reloaded policy refuses the newly blocked path")
            XCTAssertTrue(fixture.browser?.isRunning ?? false)
        }
    }

    /// A tool rewriting the config in place (truncate, write) while Porthole reloads it: every
    /// version Porthole could read ends at `block=`, which used to load cleanly and block nothing.
    /// The page's frame on the blocked path must never be fetched.
    func testAConfigRewrittenInPlaceDuringSIGHUPNeverWidensThePolicy() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture()
            defer { fixture.tearDown() }
            fixture.server.route = { request in
                request.path.hasSuffix(".png") || request.path.hasPrefix("/blocked") ? .body("", mimeType: "image/png")
                    : .html(page("Page \(request.path)") + "<iframe src='/blocked/frame'></iframe><img src='\(request.path)-shown.png'>")
            }
            let head = "[Sites]\nLocal=\(fixture.server.url("/first"))\n[Policy]\nblock="
            let full = head + "127.0.0.1/blocked\n"
            fixture.home.write("porthole.conf", full)
            try fixture.start(["--config", fixture.config])
            XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/first-shown.png") == 1 })

            // The writer rewrites the file in place (truncate, write) every 30 ms, alternating two
            // cut versions that differ only in a comment.
            let writer = try Subprocess("/bin/bash", ["-c", "while :; do printf '%s' \"$A\" > \"$F\"; sleep 0.03; printf '%s' \"$B\" > \"$F\"; sleep 0.03; done"],
                                        environment: ["A": "# a\n" + head, "B": "# b\n" + head, "F": fixture.config])
            defer { writer.stop() }
            for _ in 0..<3 {
                kill(fixture.browser!.process.processIdentifier, SIGHUP)
                XCTAssertEqual(try fixture.porthole([fixture.server.url("/first")]).status, 0)
                // Only where the policy was widened does the page load; give it the chance to.
                UI.wait(3) { fixture.server.count(path: "/first-shown.png") > 1 }
            }
            writer.stop()

            fixture.home.write("porthole.conf", full)
            kill(fixture.browser!.process.processIdentifier, SIGHUP)
            XCTAssertEqual(try fixture.porthole([fixture.server.url("/sentinel")]).status, 0)
            XCTAssertTrue(UI.wait(15) { fixture.server.count(path: "/sentinel-shown.png") == 1 }, "the sentinel page loads")
            XCTAssertEqual(fixture.server.count(path: "/blocked/frame"), 0, "no version read mid-rewrite let the blocked frame load")
            XCTAssertTrue(fixture.browser?.isRunning ?? false)
        }
    }

    func testABrokenConfigFailsClosedAndSaysWhy() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture()
            defer { fixture.tearDown() }
            let broken = fixture.home.write("broken.conf", "[Sites]\nLocal=\(fixture.server.url("/first"))\n[Browser]\njavascript=sometimes\n")
            try fixture.start(["--config", broken, fixture.server.url("/typed")])
            XCTAssertTrue(try fixture.waitForBus())
            XCTAssertEqual(try fixture.porthole([fixture.server.url("/first")]).status, 0)
            try fixture.sync()
            XCTAssertTrue(fixture.browser?.isRunning ?? false, "the browser runs, closed")
            XCTAssertEqual(fixture.server.requests.count, 0, "nothing is fetched, not even the approved site")
            fixture.browser?.stop()
            XCTAssertTrue(fixture.browser?.stderr.contains("\(broken):4: Browser/javascript:") ?? false, fixture.browser?.stderr ?? "")
        }
    }

    func testSIGHUPWithAFixedFileShowsTheHomePageAndEachProblemIsPrintedOnce() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture()
            defer { fixture.tearDown() }
            let file = fixture.home.write("fixed.conf", "[Sites]\nLocal=\(fixture.server.url("/first"))\n[Browser]\njavascript=sometimes\n")
            try fixture.start(["--config", file])
            XCTAssertTrue(try fixture.waitForBus())
            try fixture.sync()
            XCTAssertEqual(fixture.server.requests.count, 0, "broken: nothing is fetched")
            fixture.home.write("fixed.conf", "[Sites]\nLocal=\(fixture.server.url("/first"))\n")
            kill(fixture.browser!.process.processIdentifier, SIGHUP)
            XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/first") == 1 }, "the home page replaces the problems page")
            fixture.browser?.stop()
            let stderr = fixture.browser?.stderr ?? ""
            XCTAssertEqual(stderr.components(separatedBy: "Browser/javascript:").count - 1, 1, "the problem is printed once: \(stderr)")
        }
    }

    func testAnUnknownOptionExitsWithStatusTwo() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture()
            defer { fixture.tearDown() }
            let result = try fixture.porthole(["--kiosks"])
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertTrue(result.stderr.contains("unknown option --kiosks"), result.stderr)
            XCTAssertEqual(fixture.server.requests.count, 0)
        }
    }

    /// `--help-all` is what GOption was given (by Porthole from its table, by GLib and GTK
    /// themselves): it lists the table's options, no more and no fewer, each with a value or not.
    func testHelpAllListsExactlyTheOptionsTable() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture()
            defer { fixture.tearDown() }
            let help = try fixture.porthole(["--help-all"])
            XCTAssertEqual(help.status, 0, help.stderr)
            let entry = try NSRegularExpression(pattern: #"^  (?:-(.), )?--([a-z0-9-]+)(=\S+)? "#, options: .anchorsMatchLines)
            let text = help.stdout as NSString
            let listed = entry.matches(in: help.stdout, range: NSRange(location: 0, length: text.length)).map { match in
                let short = match.range(at: 1).location == NSNotFound ? "" : text.substring(with: match.range(at: 1))
                return "\(short)--\(text.substring(with: match.range(at: 2)))\(match.range(at: 3).location == NSNotFound ? "" : "=")"
            }
            let table = CommandLineOptions.all.filter { $0.argument != .operands }.map { option in
                "\(option.shortNames.first.map(String.init) ?? "")--\(option.name)\(option.argument == .none ? "" : "=")"
            }
            XCTAssertEqual(Set(listed), Set(table), help.stdout)
            XCTAssertEqual(listed.count, table.count, help.stdout)
        }
    }

    /// Every spelling of every option is accepted and reaches GLib or GTK: a help option prints its
    /// help, any other lets `--version` answer (which it does before anything starts).
    func testEveryOptionInTheTableIsAccepted() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture()
            defer { fixture.tearDown() }
            for option in CommandLineOptions.all {
                for spelling in option.spellings {
                    let arguments = switch option.argument {
                    case .none: option.name.hasPrefix("help") ? [spelling] : [spelling, "--version"]
                    case .file, .string: [spelling + "=" + fixture.config, "--version"]
                    case .operands: [String]()
                    }
                    let result = try fixture.porthole(arguments)
                    XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
                    XCTAssertFalse(result.stdout.isEmpty, "\(arguments)")
                }
            }
            XCTAssertEqual(fixture.server.requests.count, 0)
        }
    }

    /// GTK's `--display`, `--class` and `--name` work as GTK documents them: the window opens on
    /// the display named (its web processes too, or the page would not show), with that
    /// WM_CLASS, and nothing opens on the display of the environment.
    func testGTKsDisplayClassAndNameOptionsPlaceAndNameTheWindow() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture()
            defer { fixture.tearDown() }
            let number = 600 + Int(getpid() % 300)
            let xvfb = try fixture.startXvfb(number)
            defer { xvfb.stop() }
            // No display in the environment: only `--display` names one.
            fixture.extraEnvironment = ["DISPLAY": "", "WAYLAND_DISPLAY": "", "GDK_BACKEND": "x11"]
            try fixture.start(["--config", fixture.config, "--display=:\(number)", "--class", "PortholeTest", "--name=porthole-test"])
            XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/first-shown.png") == 1 }, "the page is shown: \(fixture.browser?.stderr ?? "")")
            @MainActor func clients(_ display: String) throws -> String {
                try Subprocess.run("/usr/bin/xlsclients", ["-display", display, "-l"], environment: fixture.environment).stdout
            }
            var named = ""
            XCTAssertTrue(UI.wait(15) { named = (try? clients(":\(number)")) ?? ""; return named.contains("Instance/Class:  porthole-test/PortholeTest") },
                          named)
            let own = try XCTUnwrap(ProcessInfo.processInfo.environment["DISPLAY"])
            XCTAssertFalse(try clients(own).contains("porthole-test"), "nothing opens on \(own)")
        }
    }

    func testALocalFileOpensOnlyWhenThePolicyAllowsFiles() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture()
            defer { fixture.tearDown() }
            // The page fetches from the test server when it renders, so the test can see it did.
            let kiosk = TemporaryDirectory()
            defer { kiosk.remove() }
            let file = kiosk.write("index.html", "<title>Local</title><img src='\(fixture.server.url("/from-file.png"))'>")
            let allowing = fixture.home.write("files.conf", """
                [Sites]
                Local=\(fixture.server.url("/first"))
                [Policy]
                allow=file://\(kiosk.path)/
                """)
            try fixture.start(["--config", allowing, file])
            XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/from-file.png") == 1 }, "the allowed file rendered")
            fixture.browser?.stop()

            let other = TemporaryDirectory()
            defer { other.remove() }
            let outside = other.write("index.html", "<title>Outside</title><img src='\(fixture.server.url("/outside.png"))'>")
            try fixture.start(["--config", allowing, outside])
            XCTAssertTrue(try fixture.waitForBus())
            // A file inside the allowed folder, handed over afterwards, renders: the outside one had its turn.
            XCTAssertEqual(try fixture.porthole([kiosk.write("second.html", "<img src='\(fixture.server.url("/second.png"))'>")]).status, 0)
            XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/second.png") == 1 }, "an allowed file handed over renders")
            XCTAssertEqual(fixture.server.count(path: "/outside.png"), 0, "a file outside the allowed folder is blocked")
        }
    }

    /// The icon sizes (width = height) in `_NET_WM_ICON` of the X windows of process `pid`, sorted.
    @MainActor static func windowIconSizes(pid: pid_t) throws -> [Int] {
        let windows = try Subprocess.run("/usr/bin/xdotool", ["search", "--pid", String(pid)])
        var sizes = Set<Int>()
        for window in windows.stdout.split(separator: "\n") {
            let icon = try Subprocess.run("/usr/bin/xprop", ["-id", String(window), "_NET_WM_ICON"])
            // "\tIcon (48 x 48):" before each image's picture
            for line in icon.stdout.split(separator: "\n") where line.contains("Icon (") {
                let numbers = line.split { !$0.isNumber }.compactMap { Int($0) }
                if numbers.count == 2, numbers[0] == numbers[1] { sizes.insert(numbers[0]) }
            }
        }
        return sizes.sorted()
    }

    func testMakeInstallGivesAWorkingBrowserAndUninstallRemovesIt() throws {
        try MainActor.assumeIsolated {
            // The tree `make install` gave, shared with LocalizationUITests (one release build).
            let install = try InstalledTree.shared()
            XCTAssertEqual(install.status, 0, install.stderr)
            let destdir = install.destdir
            let share = destdir + "/usr/share"
            let files = ["/usr/bin/porthole", "/usr/share/porthole/porthole.conf", "/usr/share/porthole/porthole.conf.example",
                         "/usr/share/applications/dev.porthole.Porthole.desktop", "/usr/share/metainfo/dev.porthole.Porthole.metainfo.xml",
                         "/usr/share/icons/hicolor/scalable/apps/dev.porthole.Porthole.svg",
                         "/usr/share/icons/hicolor/48x48/apps/dev.porthole.Porthole.png", "/usr/share/man/man1/porthole.1", "/usr/share/man/man5/porthole.conf.5",
                         "/usr/lib/systemd/user/porthole-kiosk.service", "/usr/share/porthole/cage/porthole-cage-session",
                         "/usr/lib/systemd/system/porthole-cage.service", "/usr/sbin/porthole-kiosk-setup",
                         "/usr/share/man/man8/porthole-kiosk-setup.8", "/usr/share/doc/porthole/admin-guide.md",
                         "/usr/lib/porthole/web-extensions/libPortholeWebExtension.so"]
                + ["de", "es", "fr", "ru", "zh_CN", "zh_TW"].map { "/usr/share/locale/\($0)/LC_MESSAGES/porthole.mo" }
            for file in files {
                XCTAssertTrue(FileManager.default.fileExists(atPath: destdir + file), "\(file) is installed")
            }
            let validate = try Subprocess.run("/usr/bin/appstreamcli", ["validate", "--no-net", share + "/metainfo/dev.porthole.Porthole.metainfo.xml"])
            XCTAssertEqual(validate.status, 0, validate.stdout + validate.stderr)
            let unit = (try? String(contentsOfFile: destdir + "/usr/lib/systemd/user/porthole-kiosk.service", encoding: .utf8)) ?? ""
            XCTAssertTrue(unit.contains("ExecStart=/usr/bin/porthole --kiosk"), "the unit runs the installed binary: \(unit)")
            // The recipe names the installed files, never make install's default /usr/local.
            for file in ["/usr/lib/systemd/system/porthole-cage.service", "/usr/sbin/porthole-kiosk-setup"] {
                let text = (try? String(contentsOfFile: destdir + file, encoding: .utf8)) ?? ""
                XCTAssertFalse(text.contains("/usr/local"), "\(file) names /usr/local")
            }
            let desktop = try Subprocess.run("/usr/bin/desktop-file-validate", [share + "/applications/dev.porthole.Porthole.desktop"])
            XCTAssertEqual(desktop.status, 0, desktop.stdout + desktop.stderr)
            // In every language the po files have: the entry and the metainfo carry their translations.
            let entry = (try? String(contentsOfFile: share + "/applications/dev.porthole.Porthole.desktop", encoding: .utf8)) ?? ""
            let metainfo = (try? String(contentsOfFile: share + "/metainfo/dev.porthole.Porthole.metainfo.xml", encoding: .utf8)) ?? ""
            for language in ["de", "es", "fr", "ru", "zh_CN", "zh_TW"] {
                XCTAssertTrue(entry.contains("\nComment[\(language)]="), "the desktop entry's Comment in \(language)")
                XCTAssertTrue(entry.contains("\nGenericName[\(language)]="), "the desktop entry's GenericName in \(language)")
                XCTAssertTrue(metainfo.contains("<summary xml:lang=\"\(language)\">"), "the metainfo's summary in \(language)")
            }
            XCTAssertTrue(entry.contains("Comment[zh_TW]=只瀏覽這部電腦核准的網站"), entry)

            // The installed binary, started from / with no checkout in reach, finds its own data
            // and opens a page.
            let fixture = try BrowserProcessFixture()
            defer { fixture.tearDown() }
            let installed = destdir + "/usr/bin/porthole"
            var env = fixture.environment
            env["PORTHOLE_DATA_DIR"] = nil
            env["XDG_DATA_DIRS"] = share + ":/usr/share"  // where a desktop finds the installed icons
            let check = try Subprocess.run(installed, ["--check-config"], environment: env)
            XCTAssertEqual(check.status, 0, check.stderr)
            XCTAssertEqual(check.stdout, "\(share)/porthole/porthole.conf: ok\n", "it uses the installed default")
            fixture.browser = try Subprocess(installed, ["--config", fixture.config], environment: env, directory: "/")
            XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/first") == 1 }, "the installed browser opened its page")
            // Its page's web process is sandboxed and runs the installed extension (issue 20).
            XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/first-shown.png") == 1 }, "the page is shown")
            // The window has the installed icon, and no SVG renderer is loaded for it: GTK takes an
            // exact fixed size over the scalable SVG (GDK leaves some sizes out of _NET_WM_ICON).
            if let pid = fixture.browser?.process.processIdentifier {
                let sizes = try Self.windowIconSizes(pid: pid)
                XCTAssertTrue(sizes.contains(16) && sizes.contains(32), "_NET_WM_ICON's sizes: \(sizes)")
                let renderers = WebProcesses.mappedFiles(pid).filter { $0.contains("librsvg") }
                XCTAssertEqual(renderers, [], "the UI process loaded an SVG renderer")
                // Speech is off on this desk: espeak-ng and the 16 libraries it brings (PulseAudio's,
                // libsndfile's codecs) are opened when speech is first needed, not at start.
                let speech = WebProcesses.mappedFiles(pid).filter { $0.contains("libespeak-ng") || $0.contains("libpulse") || $0.contains("libsndfile") }
                XCTAssertEqual(speech, [], "the UI process loaded espeak-ng without speech")
            }
            // Mesa's GL driver, loaded ahead on another thread (issue 26), is the file Mesa itself
            // opens: one copy in the UI process and in each web process, never a second.
            if let pid = fixture.browser?.process.processIdentifier {
                XCTAssertTrue(UI.wait(10) { !WebProcesses.descendants(of: pid).isEmpty }, "the page has a web process")
                for process in [pid] + WebProcesses.descendants(of: pid) {
                    let drivers = WebProcesses.executableFiles(process).filter { $0.hasSuffix("_dri.so") }
                    XCTAssertEqual(drivers.count, 1, "process \(process) maps Mesa's driver once: \(drivers)")
                    for driver in drivers {
                        XCTAssertEqual(GLDriverPreloadTests.fileID(driver), GLDriverPreloadTests.fileID(GLDriverPreloadTests.defaultDriverPath()),
                                       "process \(process) maps the driver the preload names")
                    }
                }
            }
            let canary = fixture.home.write("canary.txt", "visitor secrets")
            let library = destdir + "/usr/lib/porthole/web-extensions/libPortholeWebExtension.so"
            /// `browser`'s web processes are sandboxed and run the extension from `library`.
            @MainActor func assertSandboxedWithExtension(_ browser: pid_t, _ library: String, _ who: String) {
                XCTAssertGreaterThan(SandboxTests.assertSandboxed(descendantsOf: browser, canary: canary), 0, "\(who)'s web process was checked")
                let mapped = WebProcesses.descendants(of: browser).flatMap(WebProcesses.mappedFiles)
                XCTAssertTrue(mapped.contains(library), "\(who)'s extension is loaded in the sandboxed web process: \(mapped.filter { $0.contains("Porthole") })")
            }
            if SandboxSetup.availability() == .runs, let pid = fixture.browser?.process.processIdentifier {
                assertSandboxedWithExtension(pid, library, "the installed browser")
                let status = try Subprocess.run(installed, ["status"], environment: env)
                XCTAssertTrue(status.stdout.contains("sandbox: on"), status.stdout + status.stderr)
            }
            // One copy of the Swift runtime for both kinds of process: the UI process runs the
            // browser's code from the library every web process loads as its extension, and the
            // binary (the launcher) holds no Swift of its own.
            if let pid = fixture.browser?.process.processIdentifier {
                XCTAssertTrue(WebProcesses.mappedFiles(pid).contains(library), "the UI process runs the library the web process loads")
            }
            fixture.browser?.stop()
            // The launcher `make bench` measures (built by `make install` into .build/install/launcher)
            // is the product too: its sandboxed web process runs its extension. It once held a link
            // into SwiftPM's `release` link, which did not resolve in the sandbox (issue 26).
            if SandboxSetup.availability() == .runs {
                let launcher = BuildProducts.packageRoot + "/.build/install/launcher/porthole"
                let reference = try Subprocess(launcher, ["--config", fixture.config, fixture.server.url("/benched")], environment: env, directory: "/")
                defer { reference.stop() }
                XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/benched") == 1 }, "the benchmarks' launcher opened its page")
                XCTAssertTrue(UI.wait(10) { !WebProcesses.descendants(of: reference.process.processIdentifier).isEmpty }, "its page has a web process")
                assertSandboxedWithExtension(reference.process.processIdentifier,
                                             BuildProducts.packageRoot + "/.build/install/launcher/web-extensions/libPortholeWebExtension.so",
                                             "the benchmarks' launcher")
            }
            let binary = try XCTUnwrap(FileManager.default.contents(atPath: installed))
            XCTAssertNil(binary.range(of: Data("swift5_protocols".utf8)), "the installed binary has Swift sections of its own")
            // The library as `make launcher` links it (issue 26): relative relocations packed, and
            // the functions that run laid out first (launcher/symbol-order.txt), so the web
            // process's entry point, which every page runs, sits in the first megabyte of its code.
            let dynamic = try Subprocess.run("/usr/bin/readelf", ["-d", "-W", library])
            XCTAssertTrue(dynamic.stdout.contains("(RELR)"), "the library's relative relocations are packed: " + dynamic.stdout)
            let sections = try Subprocess.run("/usr/bin/readelf", ["-S", "-W", library]).stdout
            // "[14] .text PROGBITS <address> ...": the address is the second field after the name.
            let text = try XCTUnwrap(sections.split(separator: "\n").first { $0.contains(" .text ") }?
                .split(separator: " ").drop { $0 != ".text" }.dropFirst(2).first, sections)
            let textStart = try XCTUnwrap(UInt64(text, radix: 16), sections)
            let exported = try Subprocess.run("/bin/sh", ["-c", "nm -D --defined-only \"$0\" | grep ' webkit_web_extension_initialize_with_user_data$'", library]).stdout
            let webEntry = try XCTUnwrap(UInt64(exported.prefix { $0 != " " }, radix: 16), exported)
            XCTAssertLessThan(webEntry - textStart, 1 << 20, "the web process's entry point is laid out with the code that runs")
            // Without its library the launcher cannot run the browser: it names the files it tried.
            let lonelyBin = fixture.home.path + "/lonely-bin"
            try FileManager.default.createDirectory(atPath: lonelyBin, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: installed, toPath: lonelyBin + "/porthole")
            let lonely = try Subprocess.run(lonelyBin + "/porthole", ["--version"], environment: env)
            XCTAssertEqual(lonely.status, 127, lonely.stdout + lonely.stderr)
            XCTAssertTrue(lonely.stderr.contains("the browser's library libPortholeWebExtension.so could not be loaded"), lonely.stderr)
            XCTAssertTrue(lonely.stderr.contains(lonelyBin + "/../lib/porthole/web-extensions/libPortholeWebExtension.so: cannot open"), lonely.stderr)
            fixture.browser?.stop()

            // `make uninstall` on a copy of the tree, which other tests read as installed.
            let copy = TemporaryDirectory()
            defer { copy.remove() }
            let copied = try InstalledTree.copy(to: copy.path)
            XCTAssertEqual(copied.status, 0, copied.stderr)
            let uninstall = try Subprocess.run("/usr/bin/make", ["-C", BuildProducts.packageRoot, "uninstall", "DESTDIR=\(copy.path)", "PREFIX=/usr"])
            XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
            for file in files {
                XCTAssertTrue(FileManager.default.fileExists(atPath: destdir + file), "\(file) is still in the shared tree")
                XCTAssertFalse(FileManager.default.fileExists(atPath: copy.path + file), "\(file) is removed")
            }
        }
    }
}
