// WCAG 2.2.1 at the kiosk: the idle warning says how to keep going, plays a tone, and More time
// (a click, a tap, Enter or an assistive technology's action) keeps the session longer.
import CWebKitGtk
import Foundation
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

private func page(_ title: String) -> String {
    "<!DOCTYPE html><html><head><title>\(title)</title></head><body><h1>\(title)</h1></body></html>"
}

@MainActor
private func kioskWindow(_ server: TestServer, clock: ManualClock, sound: String = "fakesink",
                         _ edit: (inout Configuration) -> Void = { _ in }) -> BrowserWindow {
    let configuration = TestApp.kioskConfiguration(sites: [Site(name: "Home", address: server.url("/home"))]) {
        $0.kiosk.idleTimeout = 1
        $0.kiosk.idleWarning = 3
        $0.accessibility.moreTime = 10
        edit(&$0)
    }
    TestApp.engine.sites = configuration.sites
    TestApp.engine.webProcessPolicy = WebProcessPolicy(configuration: configuration)
    var options = BrowserOptions(configuration: configuration, policy: SitePolicy(configuration: configuration))
    options.clock = clock
    options.warningSoundSink = sound
    let window = BrowserWindow(application: TestApp.application, engine: TestApp.engine, options: options)
    window.show()
    return window
}

/// A mouse button press on `widget`, as GTK hands it to the widget under the pointer.
@MainActor
private func press(_ widget: UnsafeMutablePointer<GtkWidget>, type: GdkEventType = GDK_BUTTON_PRESS) {
    guard let gdkWindow = gtk_widget_get_window(widget) else { return XCTFail("the button is not realized") }
    let event = gdk_event_new(type)!
    event.pointee.button.window = gdkWindow
    g_object_ref(UnsafeMutableRawPointer(gdkWindow))
    event.pointee.button.send_event = 1
    event.pointee.button.time = guint32(GDK_CURRENT_TIME)
    event.pointee.button.button = 1
    event.pointee.button.x = 5
    event.pointee.button.y = 5
    gdk_event_set_device(event, gdk_seat_get_pointer(gdk_display_get_default_seat(gdk_window_get_display(gdkWindow))))
    gtk_widget_event(widget, event)
    gdk_event_free(event)
}

/// A finger touching `widget`, as a touchscreen's first event reaches it.
@MainActor
private func touch(_ widget: UnsafeMutablePointer<GtkWidget>) {
    guard let gdkWindow = gtk_widget_get_window(widget) else { return XCTFail("the button is not realized") }
    let event = gdk_event_new(GDK_TOUCH_BEGIN)!
    event.pointee.touch.window = gdkWindow
    g_object_ref(UnsafeMutableRawPointer(gdkWindow))
    event.pointee.touch.send_event = 1
    event.pointee.touch.time = guint32(GDK_CURRENT_TIME)
    event.pointee.touch.x = 5
    event.pointee.touch.y = 5
    gdk_event_set_device(event, gdk_seat_get_pointer(gdk_display_get_default_seat(gdk_window_get_display(gdkWindow))))
    gtk_widget_event(widget, event)
    gdk_event_free(event)
}

final class KioskMoreTimeTests: XCTestCase {
    /// The warning says how to keep going and has a More time button; a click or a tap keeps the session
    /// for `more-time` seconds, past the idle timeout that would otherwise warn again.
    func testMoreTimeButtonKeepsTheSessionForMoreTimeSeconds() throws {
        try MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in .html(page(request.path)) }
            let clock = ManualClock()
            let window = kioskWindow(server, clock: clock)
            defer { TestApp.destroy(window) }
            let kiosk = try XCTUnwrap(window.kiosk)
            window.load(url: server.url("/reading"))
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/reading")))
            UI.move(in: window)
            clock.advance(by: 1)
            XCTAssertTrue(kiosk.isIdleWarningVisible)
            XCTAssertEqual(kiosk.warningSoundsStarted, 1, "the warning plays its tone")
            let button = kiosk.moreTimeButton
            XCTAssertEqual(String(cString: gtk_button_get_label(button.cast())), "More time")
            XCTAssertTrue(UI.waitForFrames(of: button))
            XCTAssertGreaterThanOrEqual(gtk_widget_get_allocated_height(button), 44, "a target for a finger")
            XCTAssertNotEqual(gtk_widget_has_focus(button), 0, "focused, so Enter is More time and a screen reader reads it")

            press(button)
            XCTAssertFalse(kiosk.isIdleWarningVisible, "More time hides the warning")
            clock.advance(by: 5)
            XCTAssertFalse(kiosk.isIdleWarningVisible, "no warning at the idle timeout after More time")
            clock.advance(by: 5)
            XCTAssertTrue(kiosk.isIdleWarningVisible, "the next warning, more-time seconds after the press")
            XCTAssertEqual(kiosk.warningSoundsStarted, 2)

            touch(button)
            XCTAssertFalse(kiosk.isIdleWarningVisible, "a finger on More time")
            clock.advance(by: 9)
            XCTAssertFalse(kiosk.isIdleWarningVisible, "the touch gave more time")
            clock.advance(by: 1)
            XCTAssertTrue(kiosk.isIdleWarningVisible)
            XCTAssertEqual(kiosk.sessionsStarted, 0)
        }
    }

    /// Enter on the focused button and an assistive technology's click action are More time too;
    /// any other key keeps the session for the idle timeout.
    func testEnterAndTheAccessibleActionAreMoreTimeAndAnyKeyExtends() throws {
        try MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in .html(page(request.path)) }
            let clock = ManualClock()
            let window = kioskWindow(server, clock: clock)
            defer { TestApp.destroy(window) }
            let kiosk = try XCTUnwrap(window.kiosk)
            window.load(url: server.url("/reading"))
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/reading")))
            UI.move(in: window)

            clock.advance(by: 1)
            XCTAssertTrue(kiosk.isIdleWarningVisible)
            UI.press(UInt32(GDK_KEY_Return), in: window)
            XCTAssertFalse(kiosk.isIdleWarningVisible, "Enter on More time")
            clock.advance(by: 9)
            XCTAssertFalse(kiosk.isIdleWarningVisible, "Enter gave more time")
            clock.advance(by: 1)
            XCTAssertTrue(kiosk.isIdleWarningVisible)

            // What Orca's "click" does: the button's own action, with no input event at all.
            let accessible = try XCTUnwrap(gtk_widget_get_accessible(kiosk.moreTimeButton))
            XCTAssertEqual(String(cString: atk_object_get_name(accessible)), "More time")
            XCTAssertEqual(atk_object_get_role(accessible), ATK_ROLE_PUSH_BUTTON)
            XCTAssertEqual(atk_action_do_action(OpaquePointer(accessible), 0), 1)
            XCTAssertTrue(UI.wait(5) { !kiosk.isIdleWarningVisible }, "the accessible action is More time")
            clock.advance(by: 9)
            XCTAssertFalse(kiosk.isIdleWarningVisible, "the action gave more time")
            clock.advance(by: 1)
            XCTAssertTrue(kiosk.isIdleWarningVisible)

            UI.press(UInt32(GDK_KEY_b), in: window)
            XCTAssertFalse(kiosk.isIdleWarningVisible, "any key keeps the session")
            clock.advance(by: 1)
            XCTAssertTrue(kiosk.isIdleWarningVisible, "for the idle timeout only")
            clock.advance(by: 3)
            XCTAssertEqual(kiosk.sessionsStarted, 1, "and then it starts over")
        }
    }

    /// The tone is real sound: the warning's pipeline, written to a WAV file instead of the sound
    /// card, holds 0.4 s of samples that are not silence.
    func testTheWarningToneIsHeard() throws {
        try MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in .html(page(request.path)) }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("porthole-tone-\(UUID().uuidString).wav").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            let clock = ManualClock()
            let window = kioskWindow(server, clock: clock, sound: "audio/x-raw,format=S16LE,channels=1,rate=44100 ! wavenc ! filesink location=\(file)")
            defer { TestApp.destroy(window) }
            let kiosk = try XCTUnwrap(window.kiosk)
            window.load(url: server.url("/reading"))
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/reading")))
            UI.move(in: window)
            XCTAssertEqual(kiosk.warningSoundsStarted, 0, "no tone before the warning")
            clock.advance(by: 1)
            XCTAssertTrue(UI.wait(10) { kiosk.warningSoundsFinished == 1 }, "the tone plays to its end")
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            XCTAssertGreaterThan(data.count, 44 + 44_100 * 2 * 3 / 10, "0.4 s of 16-bit samples: \(data.count) bytes")
            let samples = data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
            let loud = samples.filter { abs(Int($0)) > 3_000 }.count
            XCTAssertGreaterThan(loud, samples.count / 4, "not silence: \(loud) of \(samples.count) samples are loud")
        }
    }
}
