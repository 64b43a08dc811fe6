// The next visitor's session, prepared while the current visitor is idle and swapped in at the
// idle reset (issue 26): its own context and data manager, out of the leaving visitor's reach.
import CWebKitGtk
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

private let home = """
    <!DOCTYPE html><html><head><title>Home</title></head><body><h1>Home</h1><input id=q>
    <script>
    window.keys = 0; window.clicks = 0; window.moves = 0;
    addEventListener('keydown', function () { keys++; }, true);
    addEventListener('mousedown', function () { clicks++; }, true);
    addEventListener('mousemove', function () { moves++; }, true);
    addEventListener('load', function () {
      fetch('/report?cookie=' + encodeURIComponent(document.cookie) + '&draft=' + localStorage.getItem('draft') + '&history=' + history.length);
    });
    </script></body></html>
    """

final class KioskNextVisitorTests: XCTestCase {
    /// The page the next visitor finds was loaded in a session of its own while the leaving
    /// visitor was still there, and nothing that visitor did afterwards reached it: no cookie,
    /// no storage, no history, no key, click or typing; at the reset it is uncovered, not reloaded.
    func testTheSwappedInHomePageWasNeverTheLeavingVisitors() throws {
        try MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in
                switch request.path {
                case "/home": .html(home)
                case "/report": .status(204, "")
                default: .html("<!DOCTYPE html><title>Visited</title><input id=v><script>document.cookie = 'visitor=alice; max-age=3600'; localStorage.setItem('draft', 'secret'); window.moves = 0; addEventListener('mousemove', function () { moves++; }, true);</script>")
                }
            }
            let configuration = TestApp.kioskConfiguration(sites: [Site(name: "Home", address: server.url("/home"))]) {
                $0.kiosk.idleTimeout = 20
                $0.kiosk.idleWarning = 10
                // The hand-moved clock passes 30 s at once, with no page able to answer the hang
                // watch meanwhile (KioskRecoveryTests has it).
                $0.browser.unresponsiveTimeout = 0
            }
            let clock = ManualClock(now: 1_000)
            let window = TestApp.window(configuration: configuration, clock: clock)
            defer { TestApp.destroy(window) }
            let kiosk = try XCTUnwrap(window.kiosk)
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/home")))
            window.load(url: server.url("/visited"))
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/visited")))
            UI.press(UInt32(GDK_KEY_a), in: window)  // a visitor was here at 1000: the reset is due at 1030
            XCTAssertFalse(window.hasPreparedNextVisitor)

            clock.advance(by: 9.9)
            XCTAssertFalse(window.hasPreparedNextVisitor, "not while the visitor may still be busy")
            clock.advance(by: 0.1)
            XCTAssertTrue(window.hasPreparedNextVisitor, "20 s before the reset the next visitor's session is prepared")
            let prepared = try XCTUnwrap(window.preparedWebView)
            XCTAssertNotEqual(prepared, window.webView)
            XCTAssertTrue(UI.wait { kiosk.isNextVisitorReady && server.requests.filter { $0.path == "/report" }.count == 2 },
                          "the prepared home page loaded")
            XCTAssertEqual(server.requests.last { $0.path == "/report" }?.query, "cookie=&draft=null&history=1",
                           "in a session of its own: no cookie, no storage, no history")
            let preparedWidget = UnsafeMutableRawPointer(prepared).assumingMemoryBound(to: GtkWidget.self)
            XCTAssertEqual(gtk_widget_is_sensitive(preparedWidget), 0, "out of the visitor's reach")
            XCTAssertEqual(webkit_web_view_get_is_muted(prepared), 1, "and silent")

            // The leaving visitor goes on: keys, Tab past the end of the page, a click, typing,
            // another cookie and more storage, all in their own page (input at 1010: reset at 1040).
            UI.press(UInt32(GDK_KEY_b), in: window)
            for _ in 0..<4 { UI.press(UInt32(GDK_KEY_Tab), in: window) }
            UI.clickPage(x: 20, y: 20, in: window)
            // The real pointer, routed by the X server: the prepared view lies above the first
            // one in the window (uncovered at the swap), but lets every event through.
            UI.warpPointer(in: window, x: 100, y: 100)
            UI.warpPointer(in: window, x: 200, y: 150)
            XCTAssertTrue(UI.wait { (Int(UI.evaluate("String(moves)", in: window) ?? "") ?? 0) > 0 }, "the visitor's page sees the pointer")
            _ = UI.evaluate("document.cookie = 'late=1; max-age=3600'; localStorage.setItem('late', '1'); document.getElementById('v').value = 'typed'; 'ok'",
                            in: window)
            XCTAssertEqual(gtk_widget_has_focus(preparedWidget), 0, "the prepared page never has the focus")
            XCTAssertEqual(UI.evaluate("keys + ',' + clicks + ',' + moves + ',' + document.hasFocus()", inView: prepared), "0,0,0,false",
                           "no key, click or motion of the leaving visitor reached the prepared page")
            XCTAssertEqual(window.preparedWebView, prepared, "still the same prepared page")

            clock.advance(by: 30)
            XCTAssertEqual(kiosk.sessionsStarted, 1, "the visitor left: the session started over")
            XCTAssertEqual(window.webView, prepared, "the prepared page is the one shown")
            XCTAssertFalse(window.hasPreparedNextVisitor)
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/home")))
            XCTAssertEqual(server.count(path: "/home"), 2, "uncovered, not loaded again")
            XCTAssertEqual(UI.evaluate("document.cookie", in: window), "", "no cookie")
            XCTAssertEqual(UI.evaluate("String(localStorage.getItem('draft')) + String(localStorage.getItem('late'))", in: window), "nullnull",
                           "no local storage")
            // (Uncovered under the pointer, the page may see a motion of its own now.)
            XCTAssertEqual(UI.evaluate("keys + ',' + clicks", in: window), "0,0", "no key or click of the leaving visitor reached it")
            XCTAssertEqual(UI.evaluate("document.getElementById('q').value", in: window), "", "nothing typed")
            XCTAssertEqual(UI.evaluate("String(history.length)", in: window), "1", "no history")
            XCTAssertFalse(window.coordinator.canGoBack)
            XCTAssertEqual(gtk_widget_is_sensitive(preparedWidget), 1)
            XCTAssertEqual(webkit_web_view_get_is_muted(prepared), 0)

            // The next visitor's input reaches it now.
            UI.press(UInt32(GDK_KEY_c), in: window)
            XCTAssertTrue(UI.wait { UI.evaluate("String(keys)", in: window) == "1" }, "the new visitor's key reaches the page")
        }
    }

    /// A prepared page is thrown away when the configuration changes (its home page may have),
    /// and the reset then shows the new configuration's home page.
    func testANewConfigurationThrowsThePreparedPageAway() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in .html("<!DOCTYPE html><title>\(request.path)</title>") }
            let configuration = TestApp.kioskConfiguration(sites: [Site(name: "Home", address: server.url("/home"))]) {
                $0.kiosk.idleTimeout = 20
                $0.kiosk.idleWarning = 10
                // The hand-moved clock passes 30 s at once, with no page able to answer the hang
                // watch meanwhile (KioskRecoveryTests has it).
                $0.browser.unresponsiveTimeout = 0
            }
            let clock = ManualClock(now: 1_000)
            let window = TestApp.window(configuration: configuration, clock: clock)
            defer { TestApp.destroy(window) }
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/home")))
            // Motion, not a key: WebKit hands a key the page did not take back to GTK once the
            // web process answers, which (the clock having moved on by hand) is input again later.
            UI.move(in: window)
            clock.advance(by: 10)
            XCTAssertTrue(window.hasPreparedNextVisitor)
            XCTAssertTrue(UI.wait { window.kiosk?.isNextVisitorReady == true })
            XCTAssertEqual(server.count(path: "/home"), 2)

            var changed = configuration
            changed.sites = SiteList([Site(name: "Lobby", address: server.url("/lobby"))])
            var options = BrowserOptions(configuration: changed, policy: SitePolicy(configuration: changed))
            options.clock = clock
            window.update(options: options)
            XCTAssertFalse(window.hasPreparedNextVisitor, "thrown away with the old configuration")
            clock.advance(by: 0.1)
            XCTAssertTrue(window.hasPreparedNextVisitor, "and prepared again under the new one")
            XCTAssertTrue(UI.wait { window.kiosk?.isNextVisitorReady == true }, "the new home page loaded")
            XCTAssertEqual(server.count(path: "/lobby"), 1)
            let prepared = window.preparedWebView
            clock.advance(by: 20)
            XCTAssertEqual(window.webView, prepared)
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/lobby")))
        }
    }

    /// A window closed with a prepared page lets it go too (its view is finalized).
    func testClosingTheWindowLetsThePreparedPageGo() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html("<!DOCTYPE html><title>Home</title>") }
            let configuration = TestApp.kioskConfiguration(sites: [Site(name: "Home", address: server.url("/home"))]) {
                $0.kiosk.idleTimeout = 20
                $0.browser.unresponsiveTimeout = 0
            }
            let clock = ManualClock(now: 1_000)
            let window = TestApp.window(configuration: configuration, clock: clock)
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/home")))
            UI.move(in: window)
            clock.advance(by: 10)
            XCTAssertTrue(UI.wait { window.kiosk?.isNextVisitorReady == true })
            // A GLib weak pointer on the prepared view: nulled when it is finalized.
            let prepared = UnsafeMutablePointer<gpointer?>.allocate(capacity: 1)
            defer { prepared.deallocate() }
            prepared.initialize(to: UnsafeMutableRawPointer(window.preparedWebView!))
            g_object_add_weak_pointer(UnsafeMutableRawPointer(window.preparedWebView!).assumingMemoryBound(to: GObject.self), prepared)
            TestApp.destroy(window)
            XCTAssertTrue(UI.wait(5) { prepared.pointee == nil }, "the prepared view is gone with the window")
        }
    }
}
