// [Browser] swipe-navigation: on by default, off when the admin says so, checked like any boolean.
import Foundation
import PortholeCore
import XCTest

final class ConfigSwipeNavigationTests: XCTestCase {
    private func load(_ text: String) -> ConfigLoadResult {
        let path = NSTemporaryDirectory() + "porthole-swipe-\(UUID().uuidString).conf"
        try? text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return ConfigLoader.load(sources: ConfigSources(commandLine: path), validateFilter: { _ in nil })
    }

    func testSwipeNavigationIsOnUnlessTurnedOff() {
        XCTAssertEqual(load("[Sites]\nA=a.example\n").configuration?.browser.swipeNavigation, true)
        XCTAssertEqual(load("[Sites]\nA=a.example\n[Browser]\nswipe-navigation=false\n").configuration?.browser.swipeNavigation, false)
        let bad = load("[Sites]\nA=a.example\n[Browser]\nswipe-navigation=sometimes\n")
        XCTAssertEqual(bad.problems.map(\.key), ["Browser/swipe-navigation"])
        XCTAssertTrue(bad.problems.first?.description.hasSuffix("expected true or false") ?? false, "\(bad.problems)")
    }
}
