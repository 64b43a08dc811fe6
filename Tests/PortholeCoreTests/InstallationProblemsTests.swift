// A missing web process extension is a problem like a broken file: the browser fails closed.
import Foundation
import PortholeCore
import XCTest

final class InstallationProblemsTests: XCTestCase {
    func testAMissingWebProcessExtensionMakesTheBrowserFailClosed() {
        let candidates = ["/usr/bin/../lib/porthole/web-extensions", "/usr/bin/web-extensions"]
        XCTAssertEqual(InstallationProblems.webExtension(found: candidates[0], candidates: candidates), [])
        let problems = InstallationProblems.webExtension(found: nil, candidates: candidates)
        XCTAssertEqual(problems.count, 1)
        XCTAssertEqual(problems.first?.file, candidates[0])
        XCTAssertTrue(problems.first?.message.contains(candidates[1]) ?? false)
        let bundled = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Resources/porthole.conf").path
        let loaded = ConfigLoader.load(sources: ConfigSources(bundled: bundled), validateFilter: standInFilterValidator)
        XCTAssertNotNil(loaded.configuration)
        let broken = loaded.adding(problems)
        XCTAssertNil(broken.configuration)
        XCTAssertTrue(broken.effectiveConfiguration.isFailClosed)
    }
}
