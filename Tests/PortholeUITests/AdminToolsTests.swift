// The admin's tools on the real binary (issue 23, item 18): `porthole policy check --config FILE`
// decides URLs by a candidate file with no display, validating it as --check-config does; and
// `porthole status` names the Blocked page while the browser shows one. In English and German.
import Foundation
import PortholeCore
import TestSupport
import XCTest

final class AdminToolsTests: XCTestCase {
    /// `porthole ARGUMENTS` with no display at all (no DISPLAY, no WAYLAND_DISPLAY).
    @MainActor private static func headless(_ arguments: [String], language: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let home = TemporaryDirectory()
        defer { home.remove() }
        return try Subprocess.run("/usr/bin/env", ["-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", BuildProducts.porthole] + arguments,
                                  environment: ["XDG_CONFIG_HOME": home.path + "/none", "LC_ALL": "C.UTF-8", "LANGUAGE": language])
    }

    @MainActor private static func policyCheckDecidesByACandidateFile(language: String, optionLine: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let candidate = dir.write("candidate.conf", "[Sites]\nLibrary=library.example\n[Policy]\nallow=museum.example/opening-hours\n")
        let result = try Self.headless(["policy", "check", "--config", candidate,
                                   "https://library.example/catalogue", "https://museum.example/opening-hours", "https://games.example/"],
                                  language: language)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, """
            allowed\thttps://library.example/catalogue\tlibrary.example
            allowed\thttps://museum.example/opening-hours\tmuseum.example/opening-hours
            blocked\thttps://games.example/\t*

            """)
        XCTAssertEqual(result.stderr, "")

        // A candidate with a mistake: said where, as --check-config says it, and nothing allowed.
        let broken = dir.write("broken.conf", "[Sites]\nLibrary=library.example\n[Browser]\njavascript=maybe\n")
        let failed = try Self.headless(["policy", "check", "--config", broken, "https://library.example/catalogue"], language: language)
        XCTAssertEqual(failed.status, 1, failed.stderr)
        XCTAssertTrue(failed.stdout.hasPrefix("blocked\thttps://library.example/catalogue\t"), "fail closed: \(failed.stdout)")
        let check = try Self.headless(["--check-config", broken], language: language)
        XCTAssertEqual(check.status, 1)
        let problem = try XCTUnwrap(check.stderr.split(separator: "\n").first { $0.contains("broken.conf:4") }, check.stderr)
        XCTAssertTrue(failed.stderr.contains(problem), "the same problem as --check-config: \(failed.stderr)")

        let help = try Self.headless(["policy", "check", "--help"], language: language)
        XCTAssertTrue(help.stdout.contains(optionLine), help.stdout)
    }

    func testPolicyCheckDecidesByACandidateConfigFileWithoutADisplay() throws {
        try MainActor.assumeIsolated {
            try Self.policyCheckDecidesByACandidateFile(language: "en", optionLine: "--config FILE  decide as Porthole would with this configuration file")
        }
    }

    func testPolicyCheckWithACandidateFileInGerman() throws {
        try MainActor.assumeIsolated {
            try Self.policyCheckDecidesByACandidateFile(language: "de", optionLine: "--config FILE  so entscheiden, wie Porthole es mit dieser Konfigurationsdatei täte")
        }
    }

    @MainActor private static func statusNamesTheBlockedPage(language: String, title: String) throws {
        let fixture = try BrowserProcessFixture()
        defer { fixture.tearDown() }
        var environment = fixture.environment
        environment["LANGUAGE"] = language
        environment["LC_ALL"] = "C.UTF-8"
        fixture.browser = try Subprocess(BuildProducts.porthole, ["--config", fixture.config], environment: environment)
        XCTAssertTrue(try fixture.waitForBus())
        XCTAssertTrue(UI.wait(30) { fixture.server.count(path: "/first-shown.png") == 1 }, "the first page is shown")
        let status = { (try? fixture.porthole(["status"]))?.stdout ?? "" }
        XCTAssertTrue(UI.wait(30) { status().contains("url: \(fixture.server.url("/first"))\n") }, status())

        let blocked = "http://games.example/play"
        XCTAssertEqual(try fixture.porthole([blocked]).status, 0)
        try fixture.sync()
        XCTAssertTrue(UI.wait(30) { status().contains("url: \(blocked)\n") && status().contains("title: \(title)\n") },
                      "the status names the Blocked page: \(status())")
        XCTAssertEqual(fixture.server.requests.filter { $0.host == "games.example" }.count, 0)
    }

    func testStatusNamesTheBlockedPageWhileOneIsShown() throws {
        try MainActor.assumeIsolated { try Self.statusNamesTheBlockedPage(language: "en", title: "Blocked") }
    }

    func testStatusNamesTheBlockedPageInGerman() throws {
        try MainActor.assumeIsolated { try Self.statusNamesTheBlockedPage(language: "de", title: "Gesperrt") }
    }
}
