// `[Browser] swipe-navigation=auto` in a real window: WebKit's back/forward swipes are on while a
// touchpad or touchscreen is connected and off again when it goes, read from a faked device list.
import CWebKitGtk
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

final class SwipeNavigationTests: XCTestCase {
    func testAutoSwipesWhileATouchpadIsPluggedIn() {
        MainActor.assumeIsolated {
            let devices = FixedInputDevices([.mouse, .keyboard])
            let window = window(.auto, devices: devices)
            defer { TestApp.close(window) }
            XCTAssertFalse(swipes(window), "no touchpad: no swipes, no snapshots")
            devices.devices.append(.touchpad)
            XCTAssertTrue(swipes(window), "touchpad plugged in")
            devices.devices.removeAll { $0 == .touchpad }
            XCTAssertFalse(swipes(window), "touchpad unplugged")
            devices.devices.append(.touchscreen)
            XCTAssertTrue(swipes(window), "touchscreen plugged in")
        }
    }

    func testAutoSwipesFromTheStartWithATouchpad() {
        MainActor.assumeIsolated {
            let window = window(.auto, devices: FixedInputDevices([.mouse, .touchpad]))
            defer { TestApp.close(window) }
            XCTAssertTrue(swipes(window))
        }
    }

    func testTrueAndFalseIgnoreTheDevices() {
        MainActor.assumeIsolated {
            let devices = FixedInputDevices([.mouse])
            let on = window(.on, devices: devices)
            XCTAssertTrue(swipes(on))
            TestApp.close(on)
            let touchpad = FixedInputDevices([.touchpad])
            let off = window(.off, devices: touchpad)
            defer { TestApp.close(off) }
            XCTAssertFalse(swipes(off))
            touchpad.devices.append(.touchscreen)
            XCTAssertFalse(swipes(off))
        }
    }
}

/// A shown window whose `swipe-navigation` is `mode`, reading `devices`.
@MainActor
private func window(_ mode: SwipeNavigation, devices: FixedInputDevices) -> BrowserWindow {
    var configuration = Configuration()
    configuration.sites = SiteList([Site(name: "Start", address: "about:blank")])
    configuration.browser.swipeNavigation = mode
    TestApp.engine.sites = configuration.sites
    var options = BrowserOptions(configuration: configuration, policy: SitePolicy(configuration: configuration))
    options.inputDevices = { devices }
    let window = BrowserWindow(application: TestApp.application, engine: TestApp.engine, options: options)
    window.show()
    return window
}

/// Whether WebKit's back/forward swipes are on in the window's web view.
@MainActor
private func swipes(_ window: BrowserWindow) -> Bool {
    webkit_settings_get_enable_back_forward_navigation_gestures(webkit_web_view_get_settings(window.webView)) != 0
}
