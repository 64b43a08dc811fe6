// [Browser] swipe-navigation: `auto` by default (on while a touchpad or touchscreen is connected),
// `true` or `false` when the admin says so, anything else a problem.
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

    func testSwipeNavigationIsAutoUnlessSet() {
        let rows: [(String?, SwipeNavigation)] = [
            (nil, .auto),
            ("auto", .auto),
            ("true", .on),
            ("false", .off),
            ("1", .on),  // GKeyFile reads 1 and 0 as booleans too
            ("0", .off),
        ]
        for (value, expected) in rows {
            let text = "[Sites]\nA=a.example\n" + (value.map { "[Browser]\nswipe-navigation=\($0)\n" } ?? "")
            XCTAssertEqual(load(text).configuration?.browser.swipeNavigation, expected, "\(value ?? "unset")")
        }
        let bad = load("[Sites]\nA=a.example\n[Browser]\nswipe-navigation=sometimes\n")
        XCTAssertEqual(bad.problems.map(\.key), ["Browser/swipe-navigation"])
        XCTAssertTrue(bad.problems.first?.description.hasSuffix("expected auto, true or false") ?? false, "\(bad.problems)")
    }

    func testAutoSwipesOnlyWithATouchpadOrTouchscreen() {
        let rows: [(SwipeNavigation, [InputDeviceKind], Bool)] = [
            (.auto, [], false),
            (.auto, [.mouse, .keyboard], false),
            (.auto, [.pen, .other], false),
            (.auto, [.mouse, .touchpad], true),
            (.auto, [.touchscreen], true),
            (.on, [], true),
            (.on, [.mouse], true),
            (.off, [.touchpad, .touchscreen], false),
        ]
        for (mode, devices, enabled) in rows {
            XCTAssertEqual(mode.isEnabled(devices: devices), enabled, "\(mode) \(devices)")
        }
    }
}
