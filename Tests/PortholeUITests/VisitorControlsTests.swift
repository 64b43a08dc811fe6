// The kiosk bar's visitor controls: Larger text and High contrast, one tap from any page, on the
// page and on Porthole's own chrome, and gone for the next visitor.
import CWebKitGtk
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

private let styledPage = """
    <!DOCTYPE html><html><head><title>Styled</title>
    <style>body { background: #f4f4f4; color: #999999; font-size: 16px; } a { color: #aaccff; }</style></head>
    <body><h1>Opening hours</h1><p id=p>Grey text on light grey.</p><a id=a href="/other">A pale link</a></body></html>
    """

@MainActor
private func setting(_ name: String) -> String? {
    UI.stringProperty(UnsafeMutableRawPointer(gtk_settings_get_default()!), name)
}

@MainActor
private func dpi() -> Int32 {
    var value = GValue()
    g_value_init(&value, GType(6 << G_TYPE_FUNDAMENTAL_SHIFT))
    defer { g_value_unset(&value) }
    g_object_get_property(UnsafeMutableRawPointer(gtk_settings_get_default()!).assumingMemoryBound(to: GObject.self), "gtk-xft-dpi", &value)
    return g_value_get_int(&value)
}

final class VisitorControlsTests: XCTestCase {
    func testLargerTextAndHighContrastChangeThePageAndTheChromeAndResetForTheNextVisitor() throws {
        try MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html(styledPage) }
            let configuration = TestApp.kioskConfiguration(sites: [Site(name: "Home", address: server.url("/home"))]) {
                $0.kiosk.idleTimeout = 1
                $0.kiosk.idleWarning = 1
            }
            let themeBefore = setting("gtk-theme-name")
            let dpiBefore = dpi()
            let clock = ManualClock()
            let window = TestApp.window(configuration: configuration, clock: clock)
            defer { TestApp.destroy(window) }
            let kiosk = try XCTUnwrap(window.kiosk)
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/home")))
            let large = try XCTUnwrap(kiosk.visitorControlButton(.largeText))
            let contrast = try XCTUnwrap(kiosk.visitorControlButton(.highContrast))
            XCTAssertTrue(UI.waitForFrames(of: large))
            for (button, name) in [(large, "Larger text"), (contrast, "High contrast")] {
                XCTAssertNotEqual(gtk_widget_get_mapped(button), 0, "\(name) is in the kiosk bar")
                XCTAssertGreaterThanOrEqual(gtk_widget_get_allocated_width(button), 44, name)
                XCTAssertGreaterThanOrEqual(gtk_widget_get_allocated_height(button), 44, name)
                XCTAssertNotEqual(gtk_widget_get_can_focus(button), 0, "\(name) is reachable by keyboard")
                let accessible = try XCTUnwrap(gtk_widget_get_accessible(button))
                XCTAssertEqual(String(cString: atk_object_get_name(accessible)), name)
                XCTAssertEqual(atk_object_get_role(accessible), ATK_ROLE_TOGGLE_BUTTON)
            }
            XCTAssertNotNil(kiosk.speechButtonSlot, "the speech button has its place in the bar")

            UI.move(in: window)  // a visitor is here
            gtk_button_clicked(large.cast())
            XCTAssertEqual(kiosk.visitorControls, VisitorControls(largeText: true))
            XCTAssertEqual(window.pageZoomLevel, 1.5, accuracy: 0.001, "the page is zoomed")
            XCTAssertEqual(window.zoomLevel, 1.0, accuracy: 0.001, "on top of the window's own zoom")
            XCTAssertEqual(dpi(), Int32((Double(dpiBefore > 0 ? dpiBefore : 96 * 1024) * 1.5).rounded()), "the chrome's text is larger")
            XCTAssertNotEqual(gtk_toggle_button_get_active(large.cast()), 0, "the button shows it is on")

            gtk_button_clicked(contrast.cast())
            XCTAssertEqual(kiosk.visitorControls, VisitorControls(largeText: true, highContrast: true))
            XCTAssertEqual(setting("gtk-theme-name"), "HighContrast", "GTK's HighContrast theme for the chrome")
            XCTAssertTrue(kiosk.hasContrastStyleSheet)
            XCTAssertTrue(UI.wait(10) { UI.evaluate("getComputedStyle(document.body).backgroundColor", in: window) == "rgb(0, 0, 0)" },
                          "the page's own background gives way: \(UI.evaluate("getComputedStyle(document.body).backgroundColor", in: window) ?? "")")
            XCTAssertEqual(UI.evaluate("getComputedStyle(document.getElementById('p')).color", in: window), "rgb(255, 255, 255)")
            XCTAssertEqual(UI.evaluate("getComputedStyle(document.getElementById('a')).color", in: window), "rgb(255, 255, 0)")
            XCTAssertTrue(UI.wait(10) { UI.evaluate("String(matchMedia('(prefers-contrast: more)').matches)", in: window) == "true" },
                          "pages are told prefers-contrast: more")

            // The visitor leaves: at the idle reset everything goes back for the next one.
            clock.advance(by: 1)
            XCTAssertTrue(kiosk.isIdleWarningVisible)
            clock.advance(by: 1)
            XCTAssertEqual(kiosk.sessionsStarted, 1)
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/home")))
            XCTAssertEqual(kiosk.visitorControls, VisitorControls())
            XCTAssertEqual(window.pageZoomLevel, 1.0, accuracy: 0.001, "the next visitor's page is not zoomed")
            XCTAssertEqual(dpi(), dpiBefore)
            XCTAssertEqual(setting("gtk-theme-name"), themeBefore)
            XCTAssertFalse(kiosk.hasContrastStyleSheet)
            XCTAssertEqual(UI.evaluate("getComputedStyle(document.body).backgroundColor", in: window), "rgb(244, 244, 244)")
            XCTAssertEqual(UI.evaluate("String(matchMedia('(prefers-contrast: more)').matches)", in: window), "false")
            XCTAssertEqual(gtk_toggle_button_get_active(large.cast()), 0)
            XCTAssertEqual(gtk_toggle_button_get_active(contrast.cast()), 0)
        }
    }

    /// `[Accessibility] large-text=true`: every visitor starts with it, the next one too.
    func testConfiguredDefaultsAreWhereEachVisitorStarts() throws {
        try MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html(styledPage) }
            let configuration = TestApp.kioskConfiguration(sites: [Site(name: "Home", address: server.url("/home"))]) {
                $0.kiosk.idleTimeout = 1
                $0.kiosk.idleWarning = 1
                $0.accessibility.largeText = true
                $0.accessibility.largeTextScale = 2
            }
            let dpiBefore = dpi()
            let clock = ManualClock()
            let window = TestApp.window(configuration: configuration, clock: clock)
            let kiosk = try XCTUnwrap(window.kiosk)
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/home")))
            XCTAssertEqual(window.pageZoomLevel, 2, accuracy: 0.001)
            let large = try XCTUnwrap(kiosk.visitorControlButton(.largeText))
            XCTAssertNotEqual(gtk_toggle_button_get_active(large.cast()), 0)
            UI.move(in: window)
            gtk_button_clicked(large.cast())
            XCTAssertEqual(window.pageZoomLevel, 1, accuracy: 0.001, "this visitor turned it off")
            clock.advance(by: 1)
            clock.advance(by: 1)
            XCTAssertEqual(kiosk.sessionsStarted, 1)
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/home")))
            XCTAssertEqual(window.pageZoomLevel, 2, accuracy: 0.001, "the next visitor starts with it on")
            XCTAssertNotEqual(gtk_toggle_button_get_active(large.cast()), 0)
            TestApp.destroy(window)
            XCTAssertEqual(dpi(), dpiBefore, "GTK's settings are put back when the kiosk goes")
        }
    }
}
