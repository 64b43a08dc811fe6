// Zoom, find, the primary menu and its windows, and accessible names: what a desk user expects.
import CWebKitGtk
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

final class DeskToolsTests: XCTestCase {
    func testControlPlusZoomsInAndShowsTheLevelAndControlZeroResets() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html("<title>Zoom</title><p>text</p>") }
            let window = TestApp.window(on: server, sites: [("Zoom", "/")], showing: "Zoom")
            defer { TestApp.close(window) }
            let view = window.webView!
            XCTAssertEqual(webkit_web_view_get_zoom_level(view), 1.0)
            UI.press(UInt32(GDK_KEY_equal), modifiers: GDK_CONTROL_MASK, in: window)
            XCTAssertEqual(webkit_web_view_get_zoom_level(view), 1.1, accuracy: 0.001)
            XCTAssertEqual(window.zoomIndicatorText, "110 %", "the level shows while it changes")
            UI.press(UInt32(GDK_KEY_plus), modifiers: GdkModifierType(GDK_CONTROL_MASK.rawValue | GDK_SHIFT_MASK.rawValue), in: window)
            XCTAssertEqual(webkit_web_view_get_zoom_level(view), 1.25, accuracy: 0.001)
            UI.press(UInt32(GDK_KEY_minus), modifiers: GDK_CONTROL_MASK, in: window)
            XCTAssertEqual(webkit_web_view_get_zoom_level(view), 1.1, accuracy: 0.001)
            UI.press(UInt32(GDK_KEY_0), modifiers: GDK_CONTROL_MASK, in: window)
            XCTAssertEqual(webkit_web_view_get_zoom_level(view), 1.0, accuracy: 0.001)
            XCTAssertTrue(UI.wait(5) { window.zoomIndicatorText == nil }, "the level goes away by itself")
        }
    }

    func testControlFFindsAndCountsMatchesAndEscapeCloses() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html("<title>Find</title><p>apple pear Apple banana apple</p>") }
            let window = TestApp.window(on: server, sites: [("Find", "/")], showing: "Find")
            defer { TestApp.close(window) }
            XCTAssertFalse(window.isFindBarOpen)
            UI.press(UInt32(GDK_KEY_f), modifiers: GDK_CONTROL_MASK, in: window)
            XCTAssertTrue(window.isFindBarOpen)
            XCTAssertEqual(gtk_widget_has_focus(window.findEntry), 1, "typing goes to the search entry")
            gtk_entry_set_text(window.findEntry.cast(), "apple")
            XCTAssertTrue(UI.wait { window.findMatchCount == 3 }, "three matches, case-insensitive: \(String(describing: window.findMatchCount))")
            gtk_entry_set_text(window.findEntry.cast(), "cherry")
            XCTAssertTrue(UI.wait { window.findMatchCount == 0 })
            UI.press(UInt32(GDK_KEY_Escape), in: window)
            XCTAssertTrue(UI.wait(5) { !window.isFindBarOpen }, "Escape closes the bar")
        }
    }

    func testAPageReloadedAfterACrashSaysSoInOneLine() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html("<title>Form</title><input>") }
            let window = TestApp.window(on: server, sites: [("Form", "/form")], showing: "Form")
            defer { TestApp.close(window) }
            XCTAssertTrue(UI.waitForLoad(window))
            XCTAssertNil(window.noticeText)
            webkit_web_view_terminate_web_process(window.webView!)
            XCTAssertTrue(UI.wait { server.count(path: "/form") == 2 }, "the page reloads")
            XCTAssertTrue(UI.wait { window.noticeText != nil })
            XCTAssertEqual(window.noticeText, "This page stopped working and was reloaded. Anything typed into it was lost.")
        }
    }

    func testASiteThatAsksForAPasswordGetsItThroughPortholesSignInDialog() throws {
        try MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            let encoded = g_base64_encode("ann:secret", 10)!
            let expected = "Basic " + String(cString: encoded)
            g_free(encoded)
            server.route = { request in
                request.authorization == expected ? .html("<title>Inside</title>") : .unauthorized(realm: "Staff area")
            }
            let window = TestApp.window(on: server, sites: [("Staff", "/staff")])
            defer { TestApp.close(window) }
            let events = EventLog(window)
            XCTAssertTrue(UI.waitForSignIn(window, events), "the sign-in dialog opens")
            let entries = try XCTUnwrap(window.signInEntries)
            gtk_entry_set_text(entries.user.cast(), "ann")
            gtk_entry_set_text(entries.password.cast(), "secret")
            gtk_widget_activate(entries.password)
            XCTAssertTrue(UI.wait { window.headerTitle == "Inside" }, "signed in: \(window.headerTitle ?? "nil")")
            XCTAssertNil(window.signInEntries, "the dialog closed")
        }
    }

    func testAPDFIsTitledByItsFileName() {
        MainActor.assumeIsolated {
            // The smallest document PDF.js opens (it rebuilds the missing cross-reference table).
            let pdf = "%PDF-1.4\n1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj\n2 0 obj <</Type/Pages/Kids[3 0 R]/Count 1>> endobj\n"
                + "3 0 obj <</Type/Page/Parent 2 0 R/MediaBox[0 0 300 200]>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n"
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .body(pdf, mimeType: "application/pdf") }
            let window = TestApp.window(on: server, sites: [("Leaflet", "/files/opening%20hours.pdf")])
            defer { TestApp.close(window) }
            XCTAssertTrue(UI.wait { window.headerTitle == "opening hours.pdf" }, "title: \(window.headerTitle ?? "nil")")
            XCTAssertEqual(window.headerSubtitle, "127.0.0.1")
        }
    }

    func testThePrimaryMenuOffersZoomFindPrintShortcutsAndAbout() {
        MainActor.assumeIsolated {
            let window = TestApp.window(sites: [Site(name: "Start", address: PortholePage.startURL)])
            defer { TestApp.close(window) }
            let labels = UI.menuItems(of: window.primaryMenuButton).map(\.label)
            for expected in ["100 %", "Find…", "Print…", "Keyboard Shortcuts", "About Porthole"] {
                XCTAssertTrue(labels.contains(expected), "\(expected) in \(labels)")
            }
            gtk_toggle_button_set_active(window.primaryMenuButton.cast(), 0)
        }
    }

    func testTheShortcutsWindowListsEveryShortcut() throws {
        try MainActor.assumeIsolated {
            let window = TestApp.window(sites: [])
            defer { TestApp.close(window) }
            window.action("shortcuts")?.activate()
            let shortcuts = try XCTUnwrap(UI.toplevels().first { UI.isA($0, gtk_shortcuts_window_get_type()) })
            defer { gtk_widget_destroy(shortcuts) }
            let shown = UI.allDescendants(of: shortcuts)
                .filter { UI.isA($0, gtk_shortcuts_shortcut_get_type()) }
                .compactMap { UI.stringProperty(UnsafeMutableRawPointer($0), "accelerator") }
                .joined(separator: " ")
            for (action, keys) in BrowserWindow.accelerators {
                for key in ShortcutKeys.shown(keys) {
                    XCTAssertTrue(shown.split(separator: " ").contains(Substring(key)), "\(action): \(key) in \(shown)")
                }
            }
        }
    }

    func testEveryButtonAndEntryHasAnAccessibleName() {
        MainActor.assumeIsolated {
            for configuration in [Configuration(sites: SiteList([Site(name: "A", address: "a.example")])),
                                  TestApp.kioskConfiguration(sites: [Site(name: "A", address: "a.example"), Site(name: "B", address: "b.example")])] {
                let window = TestApp.window(configuration: configuration)
                defer { TestApp.destroy(window) }
                // Those that can show: hidden bars' (find, notice) included, GTK's never-shown internals not.
                let widgets = UI.allDescendants(of: window.window!)
                    .filter { UI.isA($0, gtk_button_get_type()) || UI.isA($0, gtk_entry_get_type()) }
                    .filter { gtk_widget_get_visible($0) != 0 }
                XCTAssertGreaterThan(widgets.count, 3)
                for widget in widgets {
                    let accessible = gtk_widget_get_accessible(widget)
                    let name = accessible.flatMap { atk_object_get_name($0) }.map { String(cString: $0) } ?? ""
                    let type = String(cString: g_type_name(UI.typeOf(widget)))
                    XCTAssertFalse(name.isEmpty, "a \(type) without an accessible name (kiosk: \(configuration.kiosk.enabled))")
                }
            }
        }
    }

    /// Tab (GTK's focus chain, as the window's Tab key walks it) stops only on controls a user
    /// can see: mapped, with a size, and named for screen readers.
    func testTabStopsOnlyOnVisibleNamedControls() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html("<title>Text</title><p>Plain text, nothing to focus.</p>") }
            let window = TestApp.window(on: server, sites: [("Text", "/")], showing: "Text")
            defer { TestApp.close(window) }
            let toplevel = window.window!
            var stops: [UnsafeMutablePointer<GtkWidget>] = []
            for _ in 0..<40 {
                if gtk_widget_child_focus(toplevel, GTK_DIR_TAB_FORWARD) == 0 { _ = gtk_widget_child_focus(toplevel, GTK_DIR_TAB_FORWARD) }
                guard let focus = gtk_window_get_focus(UnsafeMutableRawPointer(toplevel).assumingMemoryBound(to: GtkWindow.self)) else { continue }
                if stops.contains(focus) { break }
                stops.append(focus)
            }
            XCTAssertGreaterThanOrEqual(stops.count, 3, "the chain reaches the header bar, the page and the bottom bar")
            XCTAssertTrue(stops.contains(window.webView!.withMemoryRebound(to: GtkWidget.self, capacity: 1) { $0 }), "the page is a stop")
            for widget in stops {
                let type = String(cString: g_type_name(UI.typeOf(widget)))
                var allocation = GtkAllocation()
                gtk_widget_get_allocation(widget, &allocation)
                XCTAssertTrue(gtk_widget_get_mapped(widget) != 0 && allocation.width > 1 && allocation.height > 1,
                              "an invisible Tab stop: \(type)")
                guard UI.typeOf(widget) != webkit_web_view_get_type() else { continue }
                let name = gtk_widget_get_accessible(widget).flatMap { atk_object_get_name($0) }.map { String(cString: $0) } ?? ""
                XCTAssertFalse(name.isEmpty, "a Tab stop without a name: \(type)")
            }
        }
    }
}
