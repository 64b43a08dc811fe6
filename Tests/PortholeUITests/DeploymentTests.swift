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
}
