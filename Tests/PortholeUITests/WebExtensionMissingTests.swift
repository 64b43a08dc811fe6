// A binary that cannot find its web process extension runs without the second layer of the site
// policy: a broken installation, so it fails closed like a broken configuration (issue 20, item 6).
import Foundation
import PortholeCore
import TestSupport
import XCTest

final class WebExtensionMissingTests: XCTestCase {
    func testABinaryWithoutItsWebProcessExtensionFailsClosedAndStatusSaysSo() throws {
        try MainActor.assumeIsolated {
            let fixture = try BrowserProcessFixture(extraConfig: "[Policy]\nsubresources=policy\n")
            defer { fixture.tearDown() }
            // The build's binary alone, in a directory with no web-extensions beside it.
            let lonely = fixture.home.path + "/bin/porthole"
            try FileManager.default.createDirectory(atPath: fixture.home.path + "/bin", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: BuildProducts.porthole, toPath: lonely)
            fixture.browser = try Subprocess(lonely, ["--config", fixture.config], environment: fixture.environment)
            XCTAssertTrue(try fixture.waitForBus())
            try fixture.sync()
            XCTAssertTrue(fixture.browser?.isRunning ?? false, "the browser runs, closed")
            XCTAssertEqual(fixture.server.requests.count, 0, "nothing is fetched, not even the approved site")
            let status = try fixture.porthole(["status"])
            XCTAssertNotEqual(status.status, 0, status.stdout + status.stderr)
            XCTAssertTrue(status.stdout.contains("health: failing closed"), status.stdout)
            XCTAssertTrue(status.stdout.contains("failing-closed: true"), status.stdout)
            fixture.browser?.stop()
            XCTAssertTrue(fixture.browser?.stderr.contains("web process extension is missing") ?? false, fixture.browser?.stderr ?? "")
        }
    }
}
