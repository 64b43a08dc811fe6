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
    _ = TestApp.application  // gtk_init
    return UI.stringProperty(UnsafeMutableRawPointer(gtk_settings_get_default()!), name)
}

/// The font size GTK draws `widget`'s text at, in pixels.
@MainActor
private func fontSize(_ widget: UnsafeMutablePointer<GtkWidget>) -> Double {
    var value = GValue()
    guard let context = gtk_widget_get_style_context(widget) else { return 0 }
    let state: GtkStateFlags = gtk_style_context_get_state(context)
    gtk_style_context_get_property(context, "font-size", state, &value)
    let size: Double = g_value_get_double(&value)
    g_value_unset(&value)
    return size
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
            let label = try XCTUnwrap(gtk_bin_get_child(UnsafeMutableRawPointer(large).assumingMemoryBound(to: GtkBin.self)))
            let textBefore = fontSize(label)
            XCTAssertGreaterThan(textBefore, 5)

            UI.move(in: window)  // a visitor is here
            gtk_button_clicked(large.cast())
            XCTAssertEqual(kiosk.visitorControls, VisitorControls(largeText: true))
            XCTAssertEqual(window.pageZoomLevel, 1.5, accuracy: 0.001, "the page is zoomed")
            XCTAssertEqual(window.zoomLevel, 1.0, accuracy: 0.001, "on top of the window's own zoom")
            XCTAssertTrue(UI.waitForFrames(of: label), "GTK restyles the window at its next frame")
            XCTAssertEqual(fontSize(label), textBefore * 1.5, accuracy: 0.5, "the chrome's text is larger")
            XCTAssertEqual(UI.evaluate("getComputedStyle(document.body).fontSize", in: window), "16px",
                           "the page's text is larger by the zoom alone, not by a font setting on top")
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
            XCTAssertTrue(UI.waitForFrames(of: label))
            XCTAssertEqual(fontSize(label), textBefore, accuracy: 0.01)
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
                $0.accessibility.highContrast = true
            }
            let themeBefore = setting("gtk-theme-name")
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
            XCTAssertEqual(setting("gtk-theme-name"), themeBefore, "GTK's settings are as they were when the kiosk goes")
        }
    }
}

final class VisitorControlsKeyboardTests: XCTestCase {
    /// Tab leaves the page's last link for the kiosk bar, where the visitor controls take the focus
    /// in turn and Space presses them.
    func testTabReachesTheVisitorControlsAndSpacePressesThem() throws {
        try MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html("<!DOCTYPE html><html><head><title>Links</title></head><body><a href='/a'>One link</a></body></html>") }
            let configuration = TestApp.kioskConfiguration(sites: [Site(name: "Home", address: server.url("/home"))])
            let window = TestApp.window(configuration: configuration, clock: ManualClock())
            defer { TestApp.destroy(window) }
            let kiosk = try XCTUnwrap(window.kiosk)
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/home")))
            window.focusPage()
            let large = try XCTUnwrap(kiosk.visitorControlButton(.largeText))
            var reached = false
            for _ in 0..<12 where !reached {
                UI.press(UInt32(GDK_KEY_Tab), in: window)
                reached = UI.wait(2) { gtk_widget_has_focus(large) != 0 }
            }
            XCTAssertTrue(reached, "Tab reaches Larger text")
            XCTAssertNotEqual(gtk_window_get_focus_visible(window.window!.cast()), 0, "and the focus is shown")
            UI.press(UInt32(GDK_KEY_space), in: window)
            XCTAssertTrue(UI.wait(2) { kiosk.visitorControls.largeText }, "Space presses it")
        }
    }
}
