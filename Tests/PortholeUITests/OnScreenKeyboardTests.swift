// The on-screen keyboard in a real window: it comes up for fields, types through WebKit's key
// path, shrinks the view around the focused field, and forgets everything with the visitor.
import CWebKitGtk
import Foundation
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

private let form = """
    <!DOCTYPE html><html><head><title>Catalogue</title></head><body style="margin:0">
    <form action="/search" method="get"><input id="q" name="q" autocomplete="off"><button id="go" type="button">Go</button></form>
    <input id="digits" inputmode="numeric"><input id="phone" type="tel"><input id="mail" type="email">
    <input id="pin" type="password"><textarea id="notes"></textarea><div id="edit" contenteditable="true">x</div>
    <input id="box" type="checkbox"><input id="ro" readonly>
    <script>
      var downs = 0, inputs = 0;
      document.getElementById('q').addEventListener('keydown', function () { downs++; });
      document.getElementById('q').addEventListener('input', function () { inputs++; });
    </script></body></html>
    """

/// A field at the bottom edge of the view, with more page below it.
private let lowField = """
    <!DOCTYPE html><html><head><title>Low</title></head><body style="margin:0">
    <div id="spacer"></div><input id="low" style="height: 30px">
    <div style="height: 2000px"></div>
    <script>document.getElementById('spacer').style.height = (window.innerHeight - 40) + 'px';</script></body></html>
    """

@MainActor
private func tap(_ button: UnsafeMutablePointer<GtkWidget>?) {
    guard let button, let window = gtk_button_get_event_window(button.cast()) else { return XCTFail("no key to tap") }
    let pointer = gdk_seat_get_pointer(gdk_display_get_default_seat(gdk_window_get_display(window)))
    var allocation = GtkAllocation()
    gtk_widget_get_allocation(button, &allocation)
    for type in [GDK_BUTTON_PRESS, GDK_BUTTON_RELEASE] {
        let event = gdk_event_new(type)!
        event.pointee.button.window = window
        g_object_ref(UnsafeMutableRawPointer(window))
        event.pointee.button.send_event = 1
        event.pointee.button.time = guint32(GDK_CURRENT_TIME)
        event.pointee.button.button = 1
        event.pointee.button.x = Double(allocation.width) / 2
        event.pointee.button.y = Double(allocation.height) / 2
        gdk_event_set_device(event, pointer)
        gtk_main_do_event(event)
        gdk_event_free(event)
    }
}

/// A shown kiosk window on `path` with `edit` applied to its configuration (keyboard on).
@MainActor
private func kiosk(_ server: TestServer, _ path: String = "/form",
                   devices: (any InputDeviceSource)? = nil, clock: (any Clock)? = nil,
                   _ edit: (inout Configuration) -> Void = { _ in }) -> BrowserWindow {
    let configuration = TestApp.kioskConfiguration(sites: [Site(name: "Catalogue", address: server.url(path))]) {
        $0.kiosk.keyboard.mode = .on
        edit(&$0)
    }
    TestApp.engine.sites = configuration.sites
    TestApp.engine.webProcessPolicy = WebProcessPolicy(configuration: configuration)
    var options = BrowserOptions(configuration: configuration, policy: SitePolicy(configuration: configuration))
    if let devices { options.inputDevices = { devices } }
    if let clock { options.clock = clock }
    BrowserWindow.installAccelerators(on: TestApp.application, kiosk: options.kiosk)
    let window = BrowserWindow(application: TestApp.application, engine: TestApp.engine, options: options)
    window.show()
    window.goHome()
    XCTAssertTrue(UI.waitForLoad(window, uri: server.url(path)))
    return window
}

@MainActor
private func serve() -> TestServer {
    let server = TestServer()
    server.route = { request in request.path == "/low" ? .html(lowField) : .html(form) }
    return server
}


final class OnScreenKeyboardTests: XCTestCase {
    func testKeyboardComesUpForATextFieldAndGoesForAButton() throws {
        try MainActor.assumeIsolated {
            let server = serve()
            defer { server.stop() }
            let window = kiosk(server)
            defer { TestApp.destroy(window) }
            let keyboard = try XCTUnwrap(window.keyboard)
            XCTAssertFalse(keyboard.isVisible, "no field has focus yet")
            UI.evaluate("document.getElementById('q').focus()", in: window)
            XCTAssertTrue(UI.wait(5) { keyboard.isFullyShown }, "focus on a text field brings the keyboard up")
            UI.evaluate("document.getElementById('go').focus()", in: window)
            XCTAssertTrue(UI.wait(5) { !keyboard.isVisible }, "focus on a button takes it away")
            UI.evaluate("document.getElementById('q').focus()", in: window)
            XCTAssertTrue(UI.wait(5) { keyboard.isVisible })
            UI.evaluate("document.getElementById('q').blur()", in: window)
            XCTAssertTrue(UI.wait(5) { !keyboard.isVisible }, "blur hides it")

            UI.evaluate("document.getElementById('q').focus()", in: window)
            XCTAssertTrue(UI.wait(5) { keyboard.isFullyShown })
            tap(keyboard.button(for: .hide))
            XCTAssertFalse(keyboard.isVisible, "the Hide key hides it")
            XCTAssertEqual(UI.evaluate("document.activeElement.id", in: window), "q", "and the field keeps its focus")
            let box = UI.evaluate("(function () { var r = document.getElementById('q').getBoundingClientRect(); return (r.left + 5) + ',' + (r.top + 5); })()",
                                  in: window)?.split(separator: ",").compactMap { Double($0) } ?? []
            XCTAssertEqual(box.count, 2)
            UI.clickPage(x: box.first ?? 0, y: box.last ?? 0, in: window)
            XCTAssertTrue(UI.wait(5) { keyboard.isVisible }, "tapping the field brings it back")
        }
    }

    func testTappingKeysTypesIntoThePageAndEnterSubmits() throws {
        try MainActor.assumeIsolated {
            let server = serve()
            defer { server.stop() }
            let window = kiosk(server) { $0.kiosk.keyboard.languages = [.en, .ru] }
            defer { TestApp.destroy(window) }
            let keyboard = try XCTUnwrap(window.keyboard)
            UI.evaluate("document.getElementById('q').focus()", in: window)
            XCTAssertTrue(UI.wait(5) { keyboard.isFullyShown })
            tap(keyboard.button(for: .nextLanguage))
            XCTAssertEqual(keyboard.current.language, .ru)
            tap(keyboard.button(for: .shift))
            for letter in ["п", "р", "и", "в", "е", "т"] { tap(keyboard.button(for: .character(letter))) }
            tap(keyboard.button(for: .space))
            for digit in ["1", "2", "3"] { tap(keyboard.button(for: .character(digit))) }
            let value = "document.getElementById('q').value"
            XCTAssertTrue(UI.wait(5) { UI.evaluate(value, in: window) == "Привет 123" }, UI.evaluate(value, in: window) ?? "")
            XCTAssertEqual(UI.evaluate("downs + ' ' + inputs", in: window), "10 10", "each key fires keydown and input")
            let backspace = try XCTUnwrap(keyboard.button(for: .backspace))
            XCTAssertEqual(atk_object_get_name(gtk_widget_get_accessible(backspace)).map { String(cString: $0) }, "Backspace",
                           "keys have accessible names")
            tap(backspace)
            XCTAssertTrue(UI.wait(5) { UI.evaluate(value, in: window) == "Привет 12" })
            tap(keyboard.button(for: .enter))
            XCTAssertTrue(UI.wait(5) { server.requests.contains { $0.path == "/search" } }, "Enter submits the form")
            let query = server.requests.first { $0.path == "/search" }?.query ?? ""
            XCTAssertEqual(query.replacingOccurrences(of: "+", with: " ").removingPercentEncoding, "q=Привет 12")
        }
    }

    func testEachFieldGetsItsShapeOfKeyboard() throws {
        try MainActor.assumeIsolated {
            let server = serve()
            defer { server.stop() }
            let window = kiosk(server)
            defer { TestApp.destroy(window) }
            let keyboard = try XCTUnwrap(window.keyboard)
            let rows: [(id: String, kind: KeyboardKind?)] = [
                ("digits", .numeric(extras: [])),
                ("phone", .numeric(extras: ["+", "*", "#"])),
                ("mail", .address),
                ("pin", .text),  // password fields get the same keyboard
                ("notes", .text),
                ("edit", .text),
                ("box", nil),
                ("ro", nil),
            ]
            for row in rows {
                UI.evaluate("document.getElementById('q').focus()", in: window)
                XCTAssertTrue(UI.wait(5) { keyboard.current.kind == .text })
                UI.evaluate("document.getElementById('\(row.id)').focus()", in: window)
                XCTAssertTrue(UI.wait(5) { keyboard.current.kind == row.kind }, "\(row.id): \(String(describing: keyboard.current.kind))")
                XCTAssertEqual(keyboard.isVisible, row.kind != nil, row.id)
            }
            UI.evaluate("document.getElementById('digits').focus()", in: window)
            XCTAssertTrue(UI.wait(5) { keyboard.current.kind == .numeric(extras: []) })
            XCTAssertNotNil(keyboard.button(for: .character("5")), "the numeric pad has digits")
            XCTAssertNil(keyboard.button(for: .character("q")), "and no letters")
        }
    }

    func testFocusedFieldStaysInViewWhileTheKeyboardIsUp() throws {
        try MainActor.assumeIsolated {
            let server = serve()
            defer { server.stop() }
            let window = kiosk(server, "/low")
            defer { TestApp.destroy(window) }
            let keyboard = try XCTUnwrap(window.keyboard)
            let fullHeight = Int(UI.evaluate("String(window.innerHeight)", in: window) ?? "") ?? 0
            UI.evaluate("document.getElementById('low').focus({preventScroll: true})", in: window)
            XCTAssertTrue(UI.wait(5) { keyboard.isFullyShown })
            let height = "String(window.innerHeight)"
            XCTAssertTrue(UI.wait(5) { (Int(UI.evaluate(height, in: window) ?? "") ?? fullHeight) < fullHeight - 100 },
                          "the view shrinks rather than being covered")
            let inView = """
                (function () { var r = document.getElementById('low').getBoundingClientRect();
                  return String(r.top >= 0 && r.bottom <= window.innerHeight); })()
                """
            XCTAssertTrue(UI.wait(5) { UI.evaluate(inView, in: window) == "true" }, "the field is scrolled into the smaller view")
        }
    }

    func testIdleResetHidesTheKeyboardAndTheNewPageHasAnEmptyField() throws {
        try MainActor.assumeIsolated {
            let server = serve()
            defer { server.stop() }
            // The idle time runs on a clock the test advances: the warning and the reset come
            // when the test says the seconds have passed, not after real ones.
            let clock = ManualClock()
            let window = kiosk(server, clock: clock) {
                $0.kiosk.keyboard.languages = [.en, .ru]
                $0.kiosk.idleTimeout = 1
                $0.kiosk.idleWarning = 2
            }
            defer { TestApp.destroy(window) }
            let keyboard = try XCTUnwrap(window.keyboard)
            let kiosk = try XCTUnwrap(window.kiosk)
            UI.evaluate("document.getElementById('q').focus()", in: window)
            XCTAssertTrue(UI.wait(5) { keyboard.isFullyShown })
            tap(keyboard.button(for: .nextLanguage))
            tap(keyboard.button(for: .caps))
            tap(keyboard.button(for: .character("д")))
            XCTAssertTrue(UI.wait(5) { UI.evaluate("document.getElementById('q').value", in: window) == "Д" })
            XCTAssertFalse(kiosk.isIdleWarningVisible)
            clock.advance(by: 1)
            XCTAssertTrue(kiosk.isIdleWarningVisible, "the warning shows after a second without input")
            tap(keyboard.button(for: .character("а")))
            XCTAssertFalse(kiosk.isIdleWarningVisible, "a key press is visitor activity")
            clock.advance(by: 1)
            XCTAssertTrue(kiosk.isIdleWarningVisible, "a second after the key, the warning again")
            XCTAssertEqual(kiosk.sessionsStarted, 0)
            clock.advance(by: 2)
            XCTAssertEqual(kiosk.sessionsStarted, 1, "left alone, the session starts over")
            XCTAssertFalse(keyboard.isVisible, "the keyboard is gone")
            XCTAssertEqual(keyboard.current, KeyboardState(languages: [.en, .ru]), "first layout, no Caps")
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/form")))
            XCTAssertEqual(UI.evaluate("document.getElementById('q').value", in: window), "", "nothing typed survives")
            UI.evaluate("document.getElementById('q').focus()", in: window)
            XCTAssertTrue(UI.wait(5) { keyboard.isVisible }, "the new session's page brings it up again")
        }
    }

    func testKeyboardFalseNeverShowsIt() throws {
        try MainActor.assumeIsolated {
            let server = serve()
            defer { server.stop() }
            let window = kiosk(server) { $0.kiosk.keyboard.mode = .off }
            defer { TestApp.destroy(window) }
            XCTAssertNil(window.keyboard)
            // The window has other revealers (the refusal notice, the zoom level): look for keys.
            let keyboards = UI.descendants(of: try XCTUnwrap(window.window)).filter {
                gtk_style_context_has_class(gtk_widget_get_style_context($0), "porthole-keyboard") != 0
            }
            XCTAssertTrue(keyboards.isEmpty, "no keyboard in the window")
        }
    }

    func testAutoWaitsForATouchscreen() throws {
        try MainActor.assumeIsolated {
            let server = serve()
            defer { server.stop() }
            let devices = FixedInputDevices([.mouse, .keyboard])
            let window = kiosk(server, devices: devices) { $0.kiosk.keyboard.mode = nil }  // kiosk default: auto
            defer { TestApp.destroy(window) }
            let keyboard = try XCTUnwrap(window.keyboard)
            XCTAssertFalse(keyboard.isOffered)
            UI.evaluate("document.getElementById('q').focus()", in: window)
            XCTAssertTrue(UI.wait(5) { keyboard.current.kind == .text }, "the field's focus arrived")
            XCTAssertFalse(keyboard.isVisible, "without a touchscreen the keyboard stays away")
            devices.devices.append(.touchscreen)
            XCTAssertTrue(keyboard.isOffered, "a touchscreen plugged in")
            XCTAssertTrue(UI.wait(5) { keyboard.isVisible }, "brings it up for the focused field")
        }
    }

    func testATouchHidesThePointerAndTheMouseBringsItBack() throws {
        try MainActor.assumeIsolated {
            let server = serve()
            defer { server.stop() }
            let window = kiosk(server)
            defer { TestApp.destroy(window) }
            let kiosk = try XCTUnwrap(window.kiosk)
            XCTAssertFalse(kiosk.isCursorHidden)
            UI.touch(window)
            XCTAssertTrue(kiosk.isCursorHidden, "a finger on the screen hides the arrow")
            XCTAssertEqual(UI.cursorType(in: window), GDK_BLANK_CURSOR)
            UI.move(in: window)
            XCTAssertFalse(kiosk.isCursorHidden, "moving the mouse shows it again")
        }
    }
}
