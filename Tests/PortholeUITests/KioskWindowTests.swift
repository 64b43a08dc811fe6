// Kiosk mode's window: full screen from the first frame, no way out for a visitor, the admin's exit.
import CWebKitGtk
import Foundation
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

private func page(_ title: String, _ body: String = "") -> String {
    "<!DOCTYPE html><html><head><title>\(title)</title></head><body><h1>\(title)</h1>\(body)</body></html>"
}

/// Whether a widget is shown and on screen.
@MainActor
private func isShowing(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
    gtk_widget_get_visible(widget) != 0 && gtk_widget_get_mapped(widget) != 0
}

final class KioskWindowTests: XCTestCase {
    func testKioskWindowIsFullscreenFromItsFirstFrameWithABottomBarAndNoHeader() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html(page("Home")) }
            let window = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [Site(name: "Home", address: server.url("/"))]),
                                        show: false)
            defer { TestApp.destroy(window) }
            var fullscreenAtFirstDraw: Bool?
            let draws = SignalConnections()
            defer { draws.disconnectAll() }
            draws.connect(UnsafeMutableRawPointer(window.window!), "draw", .pointerReturningBool { _ in
                if fullscreenAtFirstDraw == nil { fullscreenAtFirstDraw = window.kiosk?.isFullscreen }
                return false
            })
            window.show()
            window.goHome()
            XCTAssertTrue(UI.wait { fullscreenAtFirstDraw != nil }, "the window was drawn")
            XCTAssertEqual(fullscreenAtFirstDraw, true, "full screen before the first frame")
            XCTAssertTrue(UI.waitForLoad(window))
            XCTAssertFalse(isShowing(window.headerBar), "no header bar")
            XCTAssertEqual(gtk_window_get_decorated(window.window!.cast()), 0, "no title bar from the window manager")
            XCTAssertTrue(isShowing(window.toolbar), "the bottom bar shows")
            let buttons = {
                UI.descendants(of: window.toolbar).compactMap { widget -> String? in
                    guard g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self),
                                                     gtk_button_get_type()) != 0 else { return nil }
                    return gtk_actionable_get_action_name(OpaquePointer(widget)).map { String(cString: $0) }
                }
            }
            // Refresh is Stop until the load has finished.
            XCTAssertTrue(UI.wait { buttons() == ["win.back", "win.home", "win.reload"] }, "Back, Home and Refresh: \(buttons())")
            // The progress bar shows only while a page loads (issue 23): none once it has loaded.
            XCTAssertTrue(UI.wait { !UI.descendants(of: window.toolbar).contains {
                g_type_check_instance_is_a(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GTypeInstance.self), gtk_progress_bar_get_type()) != 0
                    && isShowing($0)
            } }, "no empty progress trough at rest")
            let settings = webkit_web_view_get_settings(window.webView!)
            XCTAssertEqual(webkit_settings_get_enable_developer_extras(settings), 0, "no inspector")
        }
    }

    func testToolbarFalseHidesTheBottomBar() {
        MainActor.assumeIsolated {
            let window = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [Configuration.startPage]) { $0.kiosk.toolbar = false })
            defer { TestApp.destroy(window) }
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window))
            XCTAssertFalse(isShowing(window.toolbar))
            XCTAssertFalse(isShowing(window.headerBar))
        }
    }

    func testClosingTheWindowIsRefused() {
        MainActor.assumeIsolated {
            let window = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [Configuration.startPage]))
            defer { TestApp.destroy(window) }
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window))
            window.close()  // gtk_window_close: what a close button or Ctrl+W would do
            // Alt+F4 in a window manager: WM_DELETE_WINDOW, which GDK turns into a delete event.
            let delete = gdk_event_new(GDK_DELETE)!
            delete.pointee.any.window = gtk_widget_get_window(window.window!)
            g_object_ref(UnsafeMutableRawPointer(delete.pointee.any.window))
            gtk_main_do_event(delete)
            gdk_event_free(delete)
            XCTAssertEqual(UI.evaluate("'sentinel'", in: window), "sentinel", "a later round trip through the main loop and the page")
            XCTAssertNotNil(window.window, "the window is still there")
            XCTAssertEqual(window.kiosk?.refusedCloses, 2)
            XCTAssertEqual(window.kiosk?.isFullscreen, true)
        }
    }

    func testBlockedShortcutsDoNothing() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in .html(page(request.path == "/home" ? "Home" : "Two")) }
            let window = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [Site(name: "Home", address: server.url("/home"))]))
            defer { TestApp.destroy(window) }
            // Every desktop accelerator is installed, with a quit action behind Ctrl+Q: the kiosk's
            // key filter alone must stop them.
            BrowserWindow.installAccelerators(on: TestApp.application)
            var quits = 0
            let quit = SimpleAction(name: "quit", in: UnsafeMutableRawPointer(TestApp.application)) { quits += 1 }
            defer {
                g_action_map_remove_action(OpaquePointer(TestApp.application), "quit")
                quit.release()
            }
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/home")))
            window.load(url: server.url("/two"))
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/two")))
            let requests = server.requests.count

            let blocked: [(UInt32, GdkModifierType)] = [
                (UInt32(GDK_KEY_q), GDK_CONTROL_MASK), (UInt32(GDK_KEY_w), GDK_CONTROL_MASK), (UInt32(GDK_KEY_F11), GdkModifierType(0)),
                (UInt32(GDK_KEY_F4), GDK_MOD1_MASK), (UInt32(GDK_KEY_p), GDK_CONTROL_MASK), (UInt32(GDK_KEY_u), GDK_CONTROL_MASK),
                (UInt32(GDK_KEY_F12), GdkModifierType(0)), (UInt32(GDK_KEY_I), GdkModifierType(GDK_CONTROL_MASK.rawValue | GDK_SHIFT_MASK.rawValue)),
                (UInt32(GDK_KEY_Home), GDK_MOD1_MASK), (UInt32(GDK_KEY_n), GDK_CONTROL_MASK), (UInt32(GDK_KEY_l), GDK_CONTROL_MASK),
                (UInt32(GDK_KEY_o), GDK_CONTROL_MASK), (UInt32(GDK_KEY_s), GDK_CONTROL_MASK),
            ]
            for (key, modifiers) in blocked { UI.press(key, modifiers: modifiers, in: window) }
            // A later request the server sees (the page fetches a sentinel): a load a key started comes first.
            UI.evaluate("fetch('/sentinel'); 'ok'", in: window)
            XCTAssertTrue(UI.wait { server.count(path: "/sentinel") == 1 })
            XCTAssertEqual(window.kiosk?.swallowedKeys.map(\.description),
                           ["<Control>q", "<Control>w", "F11", "<Alt>F4", "<Control>p", "<Control>u", "F12", "<Control><Shift>i",
                            "<Alt>Home", "<Control>n", "<Control>l", "<Control>o", "<Control>s"])
            XCTAssertEqual(quits, 0, "Ctrl+Q did not quit")
            XCTAssertNotNil(window.window)
            XCTAssertEqual(window.kiosk?.isFullscreen, true)
            XCTAssertEqual(window.coordinator.uri, server.url("/two"), "Alt+Home did not go home")
            XCTAssertEqual(server.requests.count, requests + 1, "nothing but the sentinel was loaded")

            // The same Ctrl+Q in a desktop window quits: the key press itself works.
            let desktop = TestApp.window(sites: [Configuration.startPage])
            defer { TestApp.close(desktop) }
            UI.press(UInt32(GDK_KEY_q), modifiers: GDK_CONTROL_MASK, in: desktop)
            XCTAssertTrue(UI.wait(2) { quits == 1 }, "the control: a desktop window's Ctrl+Q activates app.quit")
        }
    }

    func testAllowedShortcutsWork() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in .html(page(request.path == "/one" ? "One" : "Two")) }
            let window = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [Site(name: "One", address: server.url("/one"))]))
            defer { TestApp.destroy(window) }
            window.goHome()
            XCTAssertTrue(UI.wait { window.state.title == "One" })
            window.load(url: server.url("/two"))
            XCTAssertTrue(UI.wait { window.state.title == "Two" && window.coordinator.canGoBack })
            UI.press(UInt32(GDK_KEY_Left), modifiers: GDK_MOD1_MASK, in: window)
            XCTAssertTrue(UI.wait { window.state.title == "One" }, "Alt+Left goes back")
            XCTAssertTrue(UI.wait { window.coordinator.canGoForward })
            UI.press(UInt32(GDK_KEY_Right), modifiers: GDK_MOD1_MASK, in: window)
            XCTAssertTrue(UI.wait { window.state.title == "Two" }, "Alt+Right goes forward")
            XCTAssertTrue(UI.waitForLoad(window))
            let before = server.count(path: "/two")
            UI.press(UInt32(GDK_KEY_F5), in: window)
            XCTAssertTrue(UI.wait { server.count(path: "/two") == before + 1 }, "F5 reloads")
            XCTAssertTrue(UI.waitForLoad(window))
            UI.press(UInt32(GDK_KEY_r), modifiers: GDK_CONTROL_MASK, in: window)
            XCTAssertTrue(UI.wait { server.count(path: "/two") == before + 2 }, "Ctrl+R reloads")
            XCTAssertEqual(window.kiosk?.swallowedKeys, [])
        }
    }

    func testNoContextMenuAppears() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html(page("Menu", "<p style='height:2000px'>right-click me</p>")) }
            let window = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [Site(name: "Menu", address: server.url("/"))]))
            defer { TestApp.destroy(window) }
            let log = EventLog(window)
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window))
            UI.click(button: 3, on: window)
            XCTAssertTrue(UI.wait(5) { log.refusals.contains("context-menu") }, "WebKit asked and the handler refused")
            let toplevels = gtk_window_list_toplevels()
            var mappedPopups = 0
            var node = toplevels
            while let current = node {
                if let widget = current.pointee.data?.assumingMemoryBound(to: GtkWidget.self),
                   gtk_widget_get_mapped(widget) != 0, gtk_window_get_window_type(widget.cast()) == GTK_WINDOW_POPUP {
                    mappedPopups += 1
                }
                node = current.pointee.next
            }
            g_list_free(toplevels)
            XCTAssertEqual(mappedPopups, 0, "no menu is on screen")
        }
    }

    func testDownloadsAreCancelledAndThePageStays() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            let filename = "porthole-kiosk-\(getpid()).bin"
            server.route = { request in
                switch request.path {
                case "/": .html(page("Files", "<a id=get href='/\(filename)' download>Get it</a>"))
                default: .attachment("secret bytes", filename: filename, mimeType: "application/octet-stream")
                }
            }
            let window = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [Site(name: "Files", address: server.url("/"))]))
            defer { TestApp.destroy(window) }
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/")))
            let cancelledBefore = TestApp.engine.cancelledDownloadCount
            // <a download> starts a download without a response decision: the context cancels it.
            _ = UI.evaluate("document.getElementById('get').click(); 'clicked'", in: window)
            XCTAssertTrue(UI.wait(5) { TestApp.engine.cancelledDownloadCount == cancelledBefore + 1 }, "the download was cancelled")
            XCTAssertEqual(TestApp.engine.lastCancelledDownload, server.url("/\(filename)"))
            XCTAssertEqual(window.coordinator.uri, server.url("/"), "the page stays")
            XCTAssertEqual(window.state.title, "Files")
            // A plain link to an attachment is refused at the response decision.
            window.load(url: server.url("/\(filename)"))
            XCTAssertTrue(UI.wait(5) { server.count(path: "/\(filename)") >= 1 && !window.coordinator.isLoading })
            XCTAssertTrue(UI.waitForLoad(window))
            let downloads = [g_get_user_special_dir(G_USER_DIRECTORY_DOWNLOAD).map { String(cString: $0) },
                             NSHomeDirectory() + "/Downloads", NSHomeDirectory()].compactMap { $0 }
            for directory in downloads {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
                XCTAssertFalse(names.contains { $0.hasPrefix("porthole-kiosk-\(getpid())") }, "no file in \(directory)")
            }
        }
    }

    func testViewSourcePrintingAndFileChoosersAreRefused() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html(page("Page", "<input id=file type=file>")) }
            let window = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [Site(name: "Page", address: server.url("/page"))]))
            defer { TestApp.destroy(window) }
            let log = EventLog(window)
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/page")))
            _ = UI.evaluate("window.print(); 'printed'", in: window)
            XCTAssertTrue(UI.wait(5) { log.refusals.contains("print") }, "window.print() was refused")
            _ = UI.evaluate("document.getElementById('file').click(); 'clicked'", in: window)
            XCTAssertTrue(UI.wait(5) { log.refusals.contains("file-chooser") }, "the file chooser was refused: \(log.refusals)")
            window.load(url: "view-source:" + server.url("/page"))
            XCTAssertTrue(UI.wait { window.state.title == "Blocked" }, "view-source is blocked, title \(window.state.title ?? "nil")")
            XCTAssertFalse(UI.bodyText(window).contains("<input"), "no source is shown")
        }
    }

    func testExitChordAsksForThePinAndOnlyTheRightPinLeaves() throws {
        try MainActor.assumeIsolated {
            let configuration = TestApp.kioskConfiguration(sites: [Configuration.startPage]) {
                $0.kiosk.exitChord = "<Control><Alt><Shift>x"
                $0.kiosk.exitPinHash = ExitPinHash(salt: [7, 7, 7], pin: "2468")
            }
            let window = TestApp.window(configuration: configuration)
            defer { TestApp.destroy(window) }
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window))
            let kiosk = try XCTUnwrap(window.kiosk)
            let chord = GdkModifierType(GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue | GDK_SHIFT_MASK.rawValue)
            UI.press(UInt32(GDK_KEY_X), modifiers: chord, in: window)
            let entry = try XCTUnwrap(kiosk.exitDialogEntry, "the chord opens the PIN dialog")
            XCTAssertTrue(UI.wait { gtk_widget_get_mapped(entry) != 0 })
            XCTAssertEqual(gtk_entry_get_visibility(entry.cast()), 0, "the PIN is not shown")
            let name = gtk_widget_get_accessible(entry).flatMap { atk_object_get_name($0) }.map { String(cString: $0) }
            XCTAssertEqual(name, "Exit PIN", "screen readers name the entry")
            gtk_entry_set_text(entry.cast(), "1111")
            gtk_widget_activate(entry)
            XCTAssertTrue(UI.wait { kiosk.exitDialogMessage?.hasPrefix("Wrong PIN") == true })
            XCTAssertNotNil(window.window, "a wrong PIN leaves the kiosk running")
            gtk_entry_set_text(entry.cast(), "2468")
            gtk_widget_activate(entry)
            XCTAssertTrue(UI.wait { window.window == nil }, "the right PIN closes the kiosk")
        }
    }
}
