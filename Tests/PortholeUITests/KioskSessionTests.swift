// Visitor sessions: an idle kiosk warns, counts down and starts over with nothing remembered;
// input cancels the countdown; the cursor hides; pages reload on a timer.
import CWebKitGtk
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

private func page(_ title: String, _ body: String = "") -> String {
    "<!DOCTYPE html><html><head><title>\(title)</title></head><body><h1>\(title)</h1>\(body)</body></html>"
}

final class KioskSessionTests: XCTestCase {
    func testIdleTimeoutForgetsCookiesStorageAndHistoryAndReturnsHome() throws {
        try MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in
                switch request.path {
                case "/home": .html(page("Home"))
                default: .html(page("Visited", "<script>document.cookie = 'visitor=alice; max-age=3600'; localStorage.setItem('draft', 'secret');</script>"))
                }
            }
            let configuration = TestApp.kioskConfiguration(sites: [Site(name: "Home", address: server.url("/home"))]) {
                $0.kiosk.idleTimeout = 1
                $0.kiosk.idleWarning = 1
            }
            let clock = ManualClock()
            let window = TestApp.window(configuration: configuration, clock: clock)
            defer { TestApp.destroy(window) }
            let kiosk = try XCTUnwrap(window.kiosk)
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/home")))
            window.load(url: server.url("/visited"))
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/visited")))
            XCTAssertEqual(UI.evaluate("document.cookie", in: window), "visitor=alice")
            XCTAssertEqual(UI.evaluate("localStorage.getItem('draft')", in: window), "secret")
            XCTAssertTrue(window.coordinator.canGoBack)
            // A GLib weak pointer on the first view: nulled when the view is finalized.
            let firstView = UnsafeMutablePointer<gpointer?>.allocate(capacity: 1)
            defer { firstView.deallocate() }
            firstView.initialize(to: UnsafeMutableRawPointer(window.webView!))
            g_object_add_weak_pointer(UnsafeMutableRawPointer(window.webView!).assumingMemoryBound(to: GObject.self), firstView)

            UI.press(UInt32(GDK_KEY_a), in: window)  // a visitor was here
            clock.advance(by: 0.9)
            XCTAssertFalse(kiosk.isIdleWarningVisible, "no warning within the idle time")
            clock.advance(by: 0.1)
            XCTAssertTrue(kiosk.isIdleWarningVisible, "the warning shows after a second without input")
            XCTAssertTrue(kiosk.idleWarningText.contains("in 1 second"), kiosk.idleWarningText)
            clock.advance(by: 1)
            XCTAssertEqual(kiosk.sessionsStarted, 1, "then the session starts over")
            XCTAssertFalse(kiosk.isIdleWarningVisible)
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/home")), "home again")
            XCTAssertTrue(UI.wait(2) { firstView.pointee == nil }, "the first web view is gone (a new one shows)")
            XCTAssertFalse(window.coordinator.canGoBack, "no history")
            XCTAssertEqual(UI.evaluate("document.cookie", in: window), "", "no cookie")
            XCTAssertEqual(UI.evaluate("String(localStorage.getItem('draft'))", in: window), "null", "no local storage")
            XCTAssertEqual(server.count(path: "/home"), 2)

            // Nobody touched the new session: it is not reset again, however long it is left.
            clock.advance(by: 3_600)
            XCTAssertEqual(kiosk.sessionsStarted, 1)
        }
    }

    /// What one visitor copied, selected, searched for or zoomed to is not there for the next
    /// (issue 20, item 4): the clipboard and the primary selection, the find bar, the zoom.
    func testANewVisitorFindsNothingThePreviousOneLeft() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html(page("Form", "<input id=i value='password123'>")) }
            let configuration = TestApp.kioskConfiguration(sites: [Site(name: "Form", address: server.url("/form"))]) {
                $0.kiosk.shortcuts = [.find, .zoom]
            }
            let window = TestApp.window(configuration: configuration)
            defer { TestApp.destroy(window) }
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/form")))
            let display = gtk_widget_get_display(window.window!)
            let clipboard = gtk_clipboard_get_for_display(display, gdk_atom_intern_static_string("CLIPBOARD"))!
            let primary = gtk_clipboard_get_for_display(display, gdk_atom_intern_static_string("PRIMARY"))!
            func text(_ clipboard: OpaquePointer) -> String {
                guard let text = gtk_clipboard_wait_for_text(clipboard) else { return "" }
                defer { g_free(text) }
                return String(cString: text)
            }
            // The visitor selects the password and copies it (Ctrl+C's editing command).
            _ = UI.evaluate("var i = document.getElementById('i'); i.focus(); i.select(); 'ok'", in: window)
            webkit_web_view_execute_editing_command(window.webView!, "Copy")
            XCTAssertTrue(UI.wait { text(clipboard) == "password123" }, "copied: \(text(clipboard))")
            XCTAssertTrue(UI.wait { text(primary) == "password123" }, "selected: \(text(primary))")
            window.action("find")?.activate()
            gtk_entry_set_text(window.findEntry.cast(), "private search")
            window.action("zoom-in")?.activate()
            XCTAssertNotEqual(window.zoomLevel, 1.0)

            window.startNewSession()
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/form")))
            XCTAssertEqual(text(clipboard), "", "the clipboard is empty for the next visitor")
            XCTAssertEqual(text(primary), "", "so is the primary selection")
            XCTAssertEqual(gtk_clipboard_wait_is_text_available(clipboard), 0)
            XCTAssertFalse(window.isFindBarOpen)
            XCTAssertEqual(String(cString: gtk_entry_get_text(window.findEntry.cast())), "", "the find bar forgot the search")
            XCTAssertEqual(window.zoomLevel, 1.0, "the zoom is the configured one")
        }
    }

    func testInputDuringTheCountdownCancelsIt() throws {
        try MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in .html(page(request.path == "/home" ? "Home" : "Reading")) }
            let configuration = TestApp.kioskConfiguration(sites: [Site(name: "Home", address: server.url("/home"))]) {
                $0.kiosk.idleTimeout = 1
                $0.kiosk.idleWarning = 3
            }
            let clock = ManualClock()
            let window = TestApp.window(configuration: configuration, clock: clock)
            defer { TestApp.destroy(window) }
            let kiosk = try XCTUnwrap(window.kiosk)
            window.load(url: server.url("/reading"))
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/reading")))
            UI.move(in: window)
            clock.advance(by: 1)
            XCTAssertTrue(kiosk.isIdleWarningVisible)
            XCTAssertTrue(kiosk.idleWarningText.contains("seconds"), kiosk.idleWarningText)
            UI.move(in: window, x: 60, y: 60)  // the visitor is still there
            XCTAssertFalse(kiosk.isIdleWarningVisible, "input hides the warning at once")
            // Past the old deadline (1 s + 3 s after the first input) plus a margin, while the
            // visitor keeps typing now and then: no warning, no reset.
            for _ in 0..<5 {
                clock.advance(by: 0.9)
                UI.press(UInt32(GDK_KEY_b), in: window)
            }
            XCTAssertFalse(kiosk.isIdleWarningVisible)
            XCTAssertEqual(kiosk.sessionsStarted, 0)
            XCTAssertEqual(window.coordinator.uri, server.url("/reading"))
            // Once the visitor has gone, the new deadline holds.
            clock.advance(by: 4)
            XCTAssertEqual(kiosk.sessionsStarted, 1)
        }
    }

    func testMovingTheMouseOverTheWarningKeepsTheSession() throws {
        try MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in .html(page(request.path)) }
            let configuration = TestApp.kioskConfiguration(sites: [Site(name: "Home", address: server.url("/home"))]) {
                $0.kiosk.idleTimeout = 1
                $0.kiosk.idleWarning = 2
            }
            let clock = ManualClock()
            let window = TestApp.window(configuration: configuration, clock: clock)
            defer { TestApp.destroy(window) }
            let kiosk = try XCTUnwrap(window.kiosk)
            window.load(url: server.url("/reading"))
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/reading")))
            // Real pointer motion from the X server (a warp), over whatever covers the page.
            var position = 100.0
            @MainActor func moveMouse() {
                position = position == 100 ? 300 : 100
                UI.warpPointer(in: window, x: position, y: position)
            }
            UI.move(in: window)  // a visitor reads
            // Three warnings in a row, each dismissed by moving the mouse over it: the last comes
            // at the first one's deadline, when a reset would have loaded the home page instead.
            for round in 1...3 {
                clock.advance(by: 1)
                XCTAssertTrue(kiosk.isIdleWarningVisible, "warning \(round) shows")
                moveMouse()
                XCTAssertTrue(UI.wait(5) { !kiosk.isIdleWarningVisible }, "moving the mouse over warning \(round) hides it")
            }
            window.load(url: server.url("/sentinel"))
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/sentinel")))
            XCTAssertEqual(server.count(path: "/home"), 0, "no reset loaded the home page")
            XCTAssertEqual(kiosk.sessionsStarted, 0)
        }
    }

    func testCursorHidesAfterThePointerRestsAndComesBackWhenItMoves() throws {
        try MainActor.assumeIsolated {
            let clock = ManualClock()
            let window = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [Configuration.startPage]) { $0.kiosk.hideCursor = 1 },
                                        clock: clock)
            defer { TestApp.destroy(window) }
            let kiosk = try XCTUnwrap(window.kiosk)
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window))
            UI.move(in: window)
            clock.advance(by: 0.9)
            XCTAssertFalse(kiosk.isCursorHidden, "not within a second of the motion")
            clock.advance(by: 0.1)
            XCTAssertTrue(kiosk.isCursorHidden, "hidden after a second without motion")
            XCTAssertEqual(UI.cursorType(in: window), GDK_BLANK_CURSOR)
            UI.move(in: window, x: 80, y: 80)
            XCTAssertFalse(kiosk.isCursorHidden, "motion shows it again")
            XCTAssertNotEqual(UI.cursorType(in: window), GDK_BLANK_CURSOR)
        }
    }

    func testReloadEveryReloadsTheCurrentPage() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html(page("Board")) }
            let configuration = TestApp.kioskConfiguration(sites: [Site(name: "Board", address: server.url("/board"))]) {
                $0.kiosk.reloadEvery = 1
            }
            let clock = ManualClock()
            let window = TestApp.window(configuration: configuration, clock: clock)
            defer { TestApp.destroy(window) }
            window.goHome()
            XCTAssertTrue(UI.wait { server.count(path: "/board") == 1 && !window.coordinator.isLoading }, "loaded")
            for round in 2...3 {
                clock.advance(by: 1)
                XCTAssertTrue(UI.wait { server.count(path: "/board") == round && !window.coordinator.isLoading },
                              "reloaded a second later (load \(round))")
            }
        }
    }
}
