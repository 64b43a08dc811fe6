// A broken configuration never makes a more permissive browser: the window shows what is wrong
// and refuses every navigation until the file is fixed.
import Foundation
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

final class FailClosedTests: XCTestCase {
    func testABrokenConfigShowsItsProblemsAndRefusesNavigation() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html("<title>Approved</title>") }
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let file = dir.write("porthole.conf", """
                [Sites]
                Local=\(server.url("/approved"))
                [Policy]
                allow=127.0.0.1:0
                """)
            let result = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: URLFilter.validator)
            XCTAssertFalse(result.problems.isEmpty)
            TestApp.engine.show(result)
            defer { TestApp.engine.problems = [] }
            let window = TestApp.window(configuration: result.effectiveConfiguration)
            defer { TestApp.close(window) }

            window.goHome()
            XCTAssertTrue(UI.wait { window.headerTitle == "Configuration error" }, "header: \(window.headerTitle ?? "nil")")
            let text = UI.bodyText(window)
            XCTAssertTrue(text.contains("\(file):4: Policy/allow:"), "the page names the problem: \(text)")

            window.load(url: server.url("/approved"))
            XCTAssertTrue(UI.wait { window.refusals.count == 1 }, "even the listed site is refused")
            XCTAssertTrue(UI.wait { window.headerTitle == "Blocked" })
            let blocked = UI.bodyText(window)
            XCTAssertTrue(blocked.contains("This browser is not set up correctly"), "the page blames the setup, not the site: \(blocked)")
            XCTAssertEqual(server.requests.count, 0)
        }
    }
}
