// Issue 23, round two of what visitors meet: each test judges what is on screen (the header, the
// widgets' state and allocations, pixels of the real binary), in English and in a translated language.
import CWebKitGtk
import Foundation
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

final class RetryHeaderTests: XCTestCase {
    /// The error page's Retry is a link the visitor clicks: WebKit starts that load while the view
    /// still names the error page, so the window must still learn that a new page came.
    @MainActor private static func checkRetryClearsTheError(errorTitle: String, retry: String) {
        let probe = TestServer()
        let port = probe.port
        probe.stop()
        let url = "http://127.0.0.1:\(port)/back"
        let window = TestApp.window(sites: [Site(name: "Back", address: url)])
        defer { TestApp.close(window) }
        window.goHome()
        XCTAssertTrue(UI.wait { window.headerTitle == errorTitle }, "header shows \(window.headerTitle ?? "nil")")
        XCTAssertTrue(UI.waitForLoad(window))
        XCTAssertEqual(UI.evaluate("document.querySelector('a').textContent", in: window), retry)

        let server = TestServer(port: port)
        defer { server.stop() }
        server.route = { _ in .html("<!DOCTYPE html><title>Back again</title><p>here</p>") }
        _ = UI.evaluate("document.querySelector('a').click(); 'clicked'", in: window)
        XCTAssertTrue(UI.wait { UI.bodyText(window).contains("here") }, "the page came back")
        XCTAssertTrue(UI.wait { window.headerTitle == "Back again" && window.isRendered },
                      "after a successful Retry the header shows the page's title, not \(window.headerTitle ?? "nil")")
        XCTAssertEqual(window.headerSubtitle, "127.0.0.1")
    }

    func testRetryThatSucceedsShowsThePageTitle() {
        MainActor.assumeIsolated { Self.checkRetryClearsTheError(errorTitle: "Error", retry: "Retry") }
    }

    func testRetryThatSucceedsShowsThePageTitleInGerman() throws {
        try speaking(["de"]) {
            MainActor.assumeIsolated { Self.checkRetryClearsTheError(errorTitle: tr("Error"), retry: tr("Retry")) }
            XCTAssertNotEqual(tr("Retry"), "Retry", "German is what is checked")
        }
    }
}

/// Widgets found on screen, by what they are.
@MainActor
enum OnScreen {
    /// The open dialog whose body has a heading, and that heading.
    static func dialogHeading() -> (dialog: UnsafeMutablePointer<GtkWidget>, heading: UnsafeMutablePointer<GtkWidget>)? {
        for toplevel in UI.toplevels() where UI.isA(toplevel, gtk_dialog_get_type()) && gtk_widget_get_mapped(toplevel) != 0 {
            if let heading = UI.allDescendants(of: toplevel).first(where: { gtk_widget_get_name($0).map { String(cString: $0) } == "porthole-dialog-heading" }) {
                return (toplevel, heading)
            }
        }
        return nil
    }

    static func text(_ label: UnsafeMutablePointer<GtkWidget>) -> String {
        gtk_label_get_text(label.cast()).map { String(cString: $0) } ?? ""
    }

    /// `widget`'s rectangle on the screen (root window coordinates).
    static func screenRectangle(_ widget: UnsafeMutablePointer<GtkWidget>) -> GdkRectangle? {
        guard let toplevel = gtk_widget_get_toplevel(widget), let window = gtk_widget_get_window(toplevel) else { return nil }
        var x: Int32 = 0, y: Int32 = 0, originX: Int32 = 0, originY: Int32 = 0
        guard gtk_widget_translate_coordinates(widget, toplevel, 0, 0, &x, &y) != 0 else { return nil }
        gdk_window_get_origin(window, &originX, &originY)
        return GdkRectangle(x: originX + x, y: originY + y, width: gtk_widget_get_allocated_width(widget), height: gtk_widget_get_allocated_height(widget))
    }

    /// The y of `widget` inside its toplevel.
    static func top(_ widget: UnsafeMutablePointer<GtkWidget>) -> Int32 {
        var x: Int32 = 0, y: Int32 = 0
        guard let toplevel = gtk_widget_get_toplevel(widget) else { return -1 }
        _ = gtk_widget_translate_coordinates(widget, toplevel, 0, 0, &x, &y)
        return y
    }
}

private func isDark(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Bool { Int(red) + Int(green) + Int(blue) < 200 }

final class DialogHeadingTests: XCTestCase {
    /// The question is a heading at the top of the dialog's body, drawn on the screen: with no
    /// window manager (these tests run on plain Xvfb) there is no title bar to show it.
    @MainActor private static func checkHeading(_ question: String, shot: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(UI.wait { OnScreen.dialogHeading() != nil }, "a dialog with a heading is open", file: file, line: line)
        guard let (dialog, heading) = OnScreen.dialogHeading() else { return }
        XCTAssertEqual(OnScreen.text(heading), question, file: file, line: line)
        XCTAssertTrue(UI.wait { gtk_widget_get_mapped(heading) != 0 && gtk_widget_get_allocated_height(heading) > 10 }, file: file, line: line)
        let labels = UI.allDescendants(of: dialog).filter { UI.isA($0, gtk_label_get_type()) && gtk_widget_get_mapped($0) != 0 && $0 != heading }
        let body = labels.filter { OnScreen.top($0) < OnScreen.top(heading) && !UI.isA(gtk_widget_get_parent($0), gtk_button_get_type()) }
        XCTAssertTrue(body.isEmpty, "nothing in the body above the heading: \(body.map(OnScreen.text))", file: file, line: line)
        let role = gtk_widget_get_accessible(heading).map { atk_object_get_role($0) }
        XCTAssertEqual(role, ATK_ROLE_HEADING, "screen readers read it as a heading", file: file, line: line)
        // Drawn: the heading's rectangle of the screen holds text-coloured pixels. The rectangle is
        // asked for at each look (the X server's answer): a dialog placed before its parent or its
        // own size settled is moved again, and a rectangle read once can point where it was.
        XCTAssertNotNil(OnScreen.screenRectangle(heading), "on screen", file: file, line: line)
        var area = GdkRectangle()
        XCTAssertTrue(UI.wait {
            guard let now = OnScreen.screenRectangle(heading) else { return false }
            area = now
            return UI.countScreenPixels(in: now, name: shot + "-heading", where: isDark) > 40
        }, "the question is drawn on the screen (at \(area.x),\(area.y) \(area.width)×\(area.height))", file: file, line: line)
        _ = UI.countScreenPixels(name: shot, where: { _, _, _ in false })  // the whole screen, for looking at
    }

    @MainActor private static func resubmitDialog() {
        let server = TestServer()
        defer { server.stop() }
        server.route = { request in
            request.path == "/result" ? .html("<title>Thanks</title><p>Your order was sent.</p>")
                : .html("<title>Order</title><form id=f method=post action='/result'><input name=q value=1></form>")
        }
        let window = TestApp.window(on: server, sites: [("Order", "/form")], showing: "Order")
        defer { TestApp.close(window) }
        _ = UI.evaluate("document.getElementById('f').submit(); 'sent'", in: window)
        XCTAssertTrue(UI.wait { window.headerTitle == "Thanks" })
        UI.press(UInt32(GDK_KEY_F5), in: window)
        checkHeading(tr("Send the form again?"), shot: "dialog-resubmit-\(tr("Cancel"))")
        ResubmitQuestion.current?.respond(false)
        // The refused reload ends before the window closes: the next dialog's window starts
        // from a context with no load of this one still winding down.
        XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/result")), "the refused reload ends on the result page")
    }

    @MainActor private static func signInDialog() {
        let server = TestServer()
        defer { server.stop() }
        server.route = { _ in .unauthorized(realm: "Staff area") }
        let window = TestApp.window(on: server, sites: [("Staff", "/staff")])
        defer { TestApp.close(window) }
        let events = EventLog(window)
        // In two steps, each saying what it saw: the page is asked for, then WebKit asks.
        XCTAssertTrue(UI.wait(30) { server.count(path: "/staff") >= 1 },
                      "the window asks for its page: \(window.coordinator.uri ?? "nil"), loading \(window.coordinator.isLoading)")
        XCTAssertTrue(UI.waitForSignIn(window, events, timeout: 30),
                      "the sign-in dialog opens: \(server.count(path: "/staff")) requests, \(window.coordinator.uri ?? "nil"), "
                      + "loading \(window.coordinator.isLoading), header \(window.headerTitle ?? "nil"), \(UI.toplevels().count) toplevels")
        checkHeading(tr("Sign in"), shot: "dialog-sign-in-\(tr("Cancel"))")
        if let dialog = OnScreen.dialogHeading()?.dialog { gtk_dialog_response(UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: GtkDialog.self), GTK_RESPONSE_CANCEL.rawValue) }
    }

    @MainActor private static func exitPinDialog() throws {
        let configuration = TestApp.kioskConfiguration(sites: [Configuration.startPage]) {
            $0.kiosk.exitChord = "<Control><Alt><Shift>x"
            $0.kiosk.exitPinHash = ExitPinHash(salt: [7, 7, 7], pin: "2468")
        }
        let window = TestApp.window(configuration: configuration)
        defer { TestApp.destroy(window) }
        window.goHome()
        XCTAssertTrue(UI.waitForLoad(window))
        let chord = GdkModifierType(GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue | GDK_SHIFT_MASK.rawValue)
        UI.press(UInt32(GDK_KEY_X), modifiers: chord, in: window)
        checkHeading(tr("Leave kiosk mode"), shot: "dialog-exit-pin-\(tr("Cancel"))")
        if let dialog = OnScreen.dialogHeading()?.dialog { gtk_dialog_response(UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: GtkDialog.self), GTK_RESPONSE_CANCEL.rawValue) }
    }

    func testTheResubmitQuestionIsInTheDialogsBody() {
        MainActor.assumeIsolated { Self.resubmitDialog() }
    }

    func testTheSignInQuestionIsInTheDialogsBody() {
        MainActor.assumeIsolated { Self.signInDialog() }
    }

    func testTheLeaveKioskQuestionIsInTheDialogsBody() throws {
        try MainActor.assumeIsolated { try Self.exitPinDialog() }
    }

    func testEveryDialogsQuestionIsInItsBodyInFrench() throws {
        try speaking(["fr"]) {
            XCTAssertNotEqual(tr("Sign in"), "Sign in", "French is what is checked")
            try MainActor.assumeIsolated {
                Self.resubmitDialog()
                Self.signInDialog()
                try Self.exitPinDialog()
            }
        }
    }
}

final class SiteMenuButtonTests: XCTestCase {
    /// With `count` sites, the button that carries the site menu (Open at the desk, Sites in kiosk
    /// mode) is on screen with a non-empty allocation, lists the sites (with a search field from 16
    /// on), and choosing the last one opens it.
    @MainActor private static func checkSiteMenu(count: Int, kiosk: Bool, shot: String) {
        let server = TestServer()
        defer { server.stop() }
        server.route = { request in .html("<!DOCTYPE html><title>Page \(request.path)</title>") }
        // The search matches names and addresses (http://127.0.0.1:PORT/sN), and the random port
        // can hold any digits: what is typed is a word no address can contain, which only the
        // last site's name has ("site 19" matched every site whenever the port held "19").
        let searched = count >= SiteSearch.searchableFrom
        let sites = (0..<count).map { Site(name: searched && $0 == count - 1 ? "Site \($0) Kiwi" : "Site \($0)", address: server.url("/s\($0)")) }
        let window = kiosk ? TestApp.window(configuration: TestApp.kioskConfiguration(sites: sites)) : TestApp.window(sites: sites)
        defer { kiosk ? TestApp.destroy(window) : TestApp.close(window) }
        window.goHome()
        XCTAssertTrue(UI.wait { window.headerTitle == "Page /s0" })
        guard let button = kiosk ? window.kioskSitesButton : window.openMenuButton else { return XCTFail("no site button") }
        XCTAssertTrue(UI.wait { gtk_widget_get_mapped(button) != 0 }, "the \(kiosk ? "Sites" : "Open") button is on screen with \(count) sites")
        XCTAssertGreaterThan(gtk_widget_get_allocated_width(button), 20)
        XCTAssertNotEqual(gtk_widget_get_sensitive(button), 0)
        let items = UI.menuItems(of: button)
        XCTAssertEqual(items.map(\.label), sites.prefix(SiteSearch.screenful).map(\.name))
        if let popover = gtk_menu_button_get_popover(button.cast()) {
            let widgets = UI.descendants(of: UnsafeMutablePointer<GtkWidget>(OpaquePointer(popover)))
            let search = widgets.first { UI.isA($0, gtk_search_entry_get_type()) }
            XCTAssertEqual(search != nil, count >= SiteSearch.searchableFrom, "a search field from \(SiteSearch.searchableFrom) sites on")
            if let search {
                XCTAssertTrue(UI.wait { gtk_widget_get_mapped(search) != 0 && gtk_widget_get_allocated_width(search) > 50 })
                // The picture once the popover's slide-in has ended (it fades in to full opacity)
                // and that frame is drawn.
                let popoverWidget = UnsafeMutablePointer<GtkWidget>(OpaquePointer(popover))
                XCTAssertTrue(UI.wait { gtk_widget_get_opacity(popoverWidget) >= 1 }, "the popover has slid in")
                UI.waitForFrames(of: popoverWidget, 4)
                _ = UI.countScreenPixels(name: shot, where: { _, _, _ in false })
                gtk_entry_set_text(search.cast(), "kiwi")
                XCTAssertTrue(UI.wait { UI.menuItems(of: button).map(\.label) == [sites[count - 1].name] }, "typing narrows the list")
            }
        }
        let last = searched ? UI.menuItems(of: button).first?.button : items.last?.button
        guard let last else { return XCTFail("no item to choose") }
        gtk_button_clicked(last.cast())
        XCTAssertTrue(UI.wait { window.headerTitle == "Page /s\(count - 1)" }, "choosing the site opens it")
    }

    func testThreeSitesAtTheDesk() { MainActor.assumeIsolated { Self.checkSiteMenu(count: 3, kiosk: false, shot: "sites-3-desk") } }
    func testTwentySitesAtTheDesk() { MainActor.assumeIsolated { Self.checkSiteMenu(count: 20, kiosk: false, shot: "sites-20-desk") } }
    func testThreeSitesInKioskMode() { MainActor.assumeIsolated { Self.checkSiteMenu(count: 3, kiosk: true, shot: "sites-3-kiosk") } }
    func testTwentySitesInKioskMode() { MainActor.assumeIsolated { Self.checkSiteMenu(count: 20, kiosk: true, shot: "sites-20-kiosk") } }

    func testTwentySitesInKioskModeInRussian() throws {
        try speaking(["ru"]) {
            MainActor.assumeIsolated { Self.checkSiteMenu(count: 20, kiosk: true, shot: "sites-20-kiosk-ru") }
            XCTAssertNotEqual(tr("Sites"), "Sites")
        }
    }
}

final class ProgressBarTests: XCTestCase {
    /// At rest the bottom bar has no progress trough; while a page loads the progress fills the
    /// bar's free width (not a fixed 280 px), then goes again.
    @MainActor private static func checkProgress(kiosk: Bool, shot: String) {
        let server = TestServer()
        defer { server.stop() }
        server.route = { request in
            request.path == "/slow" ? .hold("<!DOCTYPE html><title>Slow</title><p>at last</p>") : .html("<!DOCTYPE html><title>Quick</title><p>quick</p>")
        }
        let sites = [Site(name: "Quick", address: server.url("/quick")), Site(name: "Slow", address: server.url("/slow"))]
        let window = kiosk ? TestApp.window(configuration: TestApp.kioskConfiguration(sites: sites)) : TestApp.window(sites: sites)
        defer { kiosk ? TestApp.destroy(window) : TestApp.close(window) }
        window.goHome()
        XCTAssertTrue(UI.wait { window.headerTitle == "Quick" && window.isRendered && !window.state.isLoading })
        let progress = window.progressWidget
        XCTAssertTrue(UI.wait { gtk_widget_get_mapped(progress) == 0 }, "no progress trough while nothing loads")
        if let bar = OnScreen.screenRectangle(window.toolbar) { _ = UI.countScreenPixels(in: bar, name: shot + "-rest", where: { _, _, _ in false }) }

        window.openSite("Slow")
        XCTAssertTrue(UI.wait { server.requests.contains { $0.path == "/slow" } })
        XCTAssertTrue(UI.wait { gtk_widget_get_mapped(progress) != 0 && gtk_widget_get_allocated_width(progress) > 1 }, "the progress shows while loading")
        let barWidth = gtk_widget_get_allocated_width(window.toolbar)
        XCTAssertGreaterThan(gtk_widget_get_allocated_width(progress), barWidth / 2,
                             "the progress spans the bar (\(gtk_widget_get_allocated_width(progress)) of \(barWidth) px)")
        if let bar = OnScreen.screenRectangle(window.toolbar) { _ = UI.countScreenPixels(in: bar, name: shot + "-loading", where: { _, _, _ in false }) }
        server.releaseHeld()
        XCTAssertTrue(UI.wait { window.headerTitle == "Slow" })
        XCTAssertTrue(UI.wait { gtk_widget_get_mapped(progress) == 0 }, "and goes when the page has loaded")
    }

    func testProgressShowsOnlyWhileLoadingAtTheDesk() { MainActor.assumeIsolated { Self.checkProgress(kiosk: false, shot: "progress-desk") } }
    func testProgressShowsOnlyWhileLoadingInKioskMode() { MainActor.assumeIsolated { Self.checkProgress(kiosk: true, shot: "progress-kiosk") } }
    func testProgressShowsOnlyWhileLoadingInChinese() throws {
        try speaking(["zh-TW"]) {
            MainActor.assumeIsolated { Self.checkProgress(kiosk: false, shot: "progress-desk-zh") }
            XCTAssertNotEqual(tr("Reload"), "Reload")
        }
    }
}

final class ShortcutsAndAboutTests: XCTestCase {
    /// Each key once (no "Ctrl + + / Ctrl + = / Ctrl + +"), and the mouse's back, forward and
    /// zoom beside the keys; read from the widgets of the window as shown.
    @MainActor private static func checkShortcuts() throws {
        let window = TestApp.window(sites: [])
        defer { TestApp.close(window) }
        window.action("shortcuts")?.activate()
        let shortcuts = try XCTUnwrap(UI.toplevels().first { UI.isA($0, gtk_shortcuts_window_get_type()) })
        defer { gtk_widget_destroy(shortcuts) }
        // The window keeps copies of every entry for its search page: those on screen count.
        let all = UI.allDescendants(of: shortcuts).filter { UI.isA($0, gtk_shortcuts_shortcut_get_type()) }
        XCTAssertTrue(UI.wait { all.contains { gtk_widget_get_mapped($0) != 0 } }, "the window is on screen")
        let entries = all.filter { gtk_widget_get_mapped($0) != 0 }
        var byTitle: [String: [String]] = [:]
        var mouse: [(title: String, subtitle: String)] = []
        for entry in entries {
            let object = UnsafeMutableRawPointer(entry)
            let title = UI.stringProperty(object, "title") ?? ""
            if let accelerator = UI.stringProperty(object, "accelerator"), !accelerator.isEmpty {
                byTitle[title, default: []] += accelerator.split(separator: " ").map(String.init)
            } else {
                mouse.append((title, UI.stringProperty(object, "subtitle") ?? ""))
            }
        }
        XCTAssertEqual(byTitle[tr("Zoom in")], ["<Control>plus"], "one entry for Ctrl and +")
        XCTAssertEqual(byTitle[tr("Zoom out")], ["<Control>minus"])
        XCTAssertEqual(byTitle[tr("Actual size")], ["<Control>0"])
        for (title, keys) in byTitle {
            XCTAssertEqual(Set(keys).count, keys.count, "\(title): \(keys)")
            XCTAssertFalse(keys.contains { $0.contains("KP_") }, "\(title): \(keys)")
        }
        XCTAssertEqual(mouse.map(\.title), [tr("Back"), tr("Forward"), tr("Zoom in or out")])
        XCTAssertEqual(mouse.map(\.subtitle), [tr("Mouse button 8 (the rear side button)"), tr("Mouse button 9 (the front side button)"),
                                                tr("Ctrl + mouse wheel")])
        _ = UI.countScreenPixels(name: "shortcuts-\(tr("Mouse"))", where: { _, _, _ in false })
    }

    func testTheShortcutsWindowShowsEachKeyOnceAndTheMouse() throws {
        try MainActor.assumeIsolated { try Self.checkShortcuts() }
    }

    func testTheShortcutsWindowInSpanish() throws {
        try speaking(["es"]) {
            XCTAssertNotEqual(tr("Mouse"), "Mouse")
            try MainActor.assumeIsolated { try Self.checkShortcuts() }
        }
    }

    /// Run from the build tree, where no icon theme has Porthole's icon, the About window shows the
    /// logo from the source tree, not GTK's broken-image icon.
    func testAboutShowsTheLogoFromTheBuildTree() throws {
        try MainActor.assumeIsolated {
            let window = TestApp.window(sites: [])
            defer { TestApp.close(window) }
            window.action("about")?.activate()
            let about = try XCTUnwrap(UI.toplevels().first { UI.isA($0, gtk_about_dialog_get_type()) })
            defer { gtk_widget_destroy(about) }
            let dialog = UnsafeMutableRawPointer(about).assumingMemoryBound(to: GtkAboutDialog.self)
            let theme = gtk_icon_theme_get_default()
            if let name = gtk_about_dialog_get_logo_icon_name(dialog).map({ String(cString: $0) }) {
                XCTAssertNotEqual(gtk_icon_theme_has_icon(theme, name), 0, "the logo icon \(name) is in the theme")
            } else {
                let logo = try XCTUnwrap(gtk_about_dialog_get_logo(dialog), "a logo picture")
                XCTAssertEqual(gdk_pixbuf_get_width(logo), 128)
            }
            // What is drawn: the logo image holds Porthole's blue, not the grey broken-image icon.
            let images = UI.allDescendants(of: about).filter { UI.isA($0, gtk_image_get_type()) && gtk_widget_get_mapped($0) != 0 }
            XCTAssertTrue(UI.wait { UI.allDescendants(of: about).contains { UI.isA($0, gtk_image_get_type()) && gtk_widget_get_mapped($0) != 0 } })
            let logoImage = try XCTUnwrap((images.isEmpty ? UI.allDescendants(of: about).filter { UI.isA($0, gtk_image_get_type()) } : images)
                .max { gtk_widget_get_allocated_height($0) < gtk_widget_get_allocated_height($1) })
            XCTAssertGreaterThanOrEqual(gtk_widget_get_allocated_height(logoImage), 100, "a logo-sized picture")
            let area = try XCTUnwrap(OnScreen.screenRectangle(logoImage))
            XCTAssertTrue(UI.wait { UI.countScreenPixels(in: area, name: "about-logo", where: { r, g, b in Int(b) > Int(r) + 40 }) > 500 },
                          "the logo's colours are on screen")
        }
    }
}

private let keyboardForm = """
    <!DOCTYPE html><html><body style="margin:0">
    <input id="text"><input id="mail" type="email"><input id="digits" inputmode="numeric"></body></html>
    """

final class KeyboardFitTests: XCTestCase {
    /// A desk window `width` px wide with the keyboard on (every layout), showing the form.
    @MainActor private static func keyboardWindow(_ server: TestServer) -> BrowserWindow {
        var options = BrowserOptions(sites: SiteList([Site(name: "Form", address: server.url("/form"))]),
                                     decide: { _ in .allowed("allowed: every navigation (test)") })
        options.keyboard = KeyboardSettings(mode: .on, languages: KeyboardLanguage.allCases)
        TestApp.engine.sites = options.sites
        TestApp.engine.webProcessPolicy = WebProcessPolicy(sites: [], allow: ["file://*"], block: [])
        let window = BrowserWindow(application: TestApp.application, engine: TestApp.engine, options: options)
        window.show()
        window.goHome()
        XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/form")))
        return window
    }

    /// Every key of the layout shown lies inside the window `width` px wide and shows its whole
    /// label (only the space bar's language name may shorten); the window was not pushed wider.
    @MainActor private static func checkKeysFit(_ window: BrowserWindow, width: Int32, what: String) {
        guard let keyboard = window.keyboard, let window = window.window, let layout = keyboard.current.layout,
              let toplevel = gtk_bin_get_child(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkBin.self)) else { return XCTFail("no keyboard") }
        // The window's content (its shadow, drawn by GTK without a window manager, aside).
        XCTAssertEqual(gtk_widget_get_allocated_width(toplevel), width, "\(what): the keyboard leaves the window \(width) px wide")
        for row in layout.rows {
            for key in row {
                guard let button = keyboard.button(for: key.action) else { XCTFail("\(what): no button for \(key.action)"); continue }
                var x: Int32 = 0, y: Int32 = 0
                _ = gtk_widget_translate_coordinates(button, toplevel, 0, 0, &x, &y)
                let keyWidth = gtk_widget_get_allocated_width(button)
                XCTAssertTrue(x >= 0 && x + keyWidth <= width && keyWidth > 10, "\(what): \(key.action) at \(x)+\(keyWidth) of \(width)")
                guard let label = gtk_bin_get_child(UnsafeMutableRawPointer(button).assumingMemoryBound(to: GtkBin.self)),
                      UI.isA(label, gtk_label_get_type()) else { continue }
                var minimum: Int32 = 0, natural: Int32 = 0
                gtk_widget_get_preferred_width(label, &minimum, &natural)
                if key.action != .space {
                    XCTAssertLessThanOrEqual(natural, gtk_widget_get_allocated_width(label),
                                             "\(what): \(key.action)'s label \"\(OnScreen.text(label))\" is cut off")
                }
            }
        }
    }

    @MainActor private static func checkEveryLayout(shots: Bool) {
        let server = TestServer()
        defer { server.stop() }
        server.route = { _ in .html(keyboardForm) }
        let window = keyboardWindow(server)
        defer { TestApp.close(window) }
        guard let keyboard = window.keyboard, let toplevel = window.window else { return XCTFail("no keyboard") }
        let language = Localization.activeLanguage()
        for width: Int32 in [800, 1280, 1920] {
            gtk_window_resize(toplevel.cast(), width, 700)
            for field in ["text", "mail", "digits"] {
                _ = UI.evaluate("document.getElementById('\(field)').focus(); 'ok'", in: window)
                XCTAssertTrue(UI.wait(5) { keyboard.isFullyShown })
                for _ in KeyboardLanguage.allCases {
                    let what = "\(language) \(width) px \(field) \(keyboard.current.language.rawValue)"
                    let content = gtk_bin_get_child(UnsafeMutableRawPointer(toplevel).assumingMemoryBound(to: GtkBin.self))!
                    XCTAssertTrue(UI.wait(5) { gtk_widget_get_allocated_width(content) >= width && window.isRendered }, what)
                    XCTAssertTrue(UI.waitForFrames(of: toplevel), "\(what): the relabel reaches the allocations")
                    checkKeysFit(window, width: width, what: what)
                    if shots, field == "text", width != 1920 {
                        _ = UI.countScreenPixels(name: "keyboard-\(language)-\(width)-\(keyboard.current.language.rawValue)", where: { _, _, _ in false })
                    }
                    guard field == "text", let next = keyboard.button(for: .nextLanguage) else { break }
                    gtk_button_clicked(UnsafeMutableRawPointer(next).assumingMemoryBound(to: GtkButton.self))
                }
            }
        }
    }

    func testEveryKeyFitsInEnglish() { MainActor.assumeIsolated { Self.checkEveryLayout(shots: true) } }

    func testEveryKeyFitsInEveryShippedLanguage() throws {
        for language in ["de", "fr", "es", "ru", "zh-TW", "zh-CN"] {
            try speaking([language]) {
                MainActor.assumeIsolated { Self.checkEveryLayout(shots: language == "de") }
            }
        }
    }
}

final class KeyboardFaceTests: XCTestCase {
    /// The space bar names the layout typed with now, the language key shows the same, and Caps
    /// Lock is lit (its own colour, read from the screen) while it is on.
    @MainActor private static func checkFaces(english: String, russian: String) throws {
        let server = TestServer()
        defer { server.stop() }
        server.route = { _ in .html(keyboardForm) }
        var options = BrowserOptions(sites: SiteList([Site(name: "Form", address: server.url("/form"))]),
                                     decide: { _ in .allowed("allowed: every navigation (test)") })
        options.keyboard = KeyboardSettings(mode: .on, languages: [.en, .ru])
        TestApp.engine.sites = options.sites
        TestApp.engine.webProcessPolicy = WebProcessPolicy(sites: [], allow: ["file://*"], block: [])
        let window = BrowserWindow(application: TestApp.application, engine: TestApp.engine, options: options)
        window.show()
        defer { TestApp.close(window) }
        window.goHome()
        XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/form")))
        _ = UI.evaluate("document.getElementById('text').focus(); 'ok'", in: window)
        let keyboard = try XCTUnwrap(window.keyboard)
        XCTAssertTrue(UI.wait(5) { keyboard.isFullyShown })
        let label = { (action: KeyAction) in keyboard.button(for: action).flatMap { gtk_button_get_label($0.cast()) }.map { String(cString: $0) } }
        XCTAssertEqual(label(.space), english, "the space bar names the layout in use")
        XCTAssertEqual(label(.nextLanguage), "EN", "the language key shows the layout in use, not the next")
        gtk_button_clicked(try XCTUnwrap(keyboard.button(for: .nextLanguage)).cast())
        XCTAssertTrue(UI.wait { label(.space) == russian }, "after switching: \(label(.space) ?? "nil")")
        XCTAssertEqual(label(.nextLanguage), "RU")

        let caps = try XCTUnwrap(keyboard.button(for: .caps))
        let lit = { (r: UInt8, g: UInt8, b: UInt8) in r < 60 && g > 90 && g < 140 && b > 190 }  // #1c71d8
        XCTAssertTrue(UI.wait { gtk_widget_get_allocated_width(caps) > 20 && gtk_widget_get_mapped(caps) != 0 }, "the new layout's keys are placed")
        let area = try XCTUnwrap(OnScreen.screenRectangle(caps))
        XCTAssertTrue(UI.wait { UI.countScreenPixels(in: area, name: "caps-off", where: lit) < 20 }, "Caps Lock is not lit while off")
        gtk_button_clicked(caps.cast())
        XCTAssertNotEqual(gtk_style_context_has_class(gtk_widget_get_style_context(caps), OnScreenKeyboard.onClass), 0)
        XCTAssertTrue(UI.wait { UI.countScreenPixels(in: area, name: "caps-on", where: lit) > area.width * area.height / 3 },
                      "Caps Lock is lit while on (\(area))")
        let name = gtk_widget_get_accessible(caps).flatMap { atk_object_get_name($0) }.map { String(cString: $0) }
        XCTAssertEqual(name, tr("Caps Lock is on"))
        _ = UI.countScreenPixels(name: "keyboard-caps-\(english)", where: { _, _, _ in false })
        gtk_button_clicked(caps.cast())
        XCTAssertTrue(UI.wait { UI.countScreenPixels(in: area, name: "caps-off-again", where: lit) < 20 })
    }

    func testTheKeyboardShowsItsLayoutAndCapsLock() throws {
        try MainActor.assumeIsolated { try Self.checkFaces(english: "English", russian: "Russian") }
    }

    func testTheKeyboardShowsItsLayoutAndCapsLockInGerman() throws {
        try speaking(["de"]) {
            try MainActor.assumeIsolated { try Self.checkFaces(english: tr("English"), russian: tr("Russian")) }
            XCTAssertEqual(tr("English"), "Englisch")
        }
    }
}

/// A page of one bright colour with a focused field (the keyboard comes up for it).
private let brightPage = """
    <!DOCTYPE html><html><body style="margin:0;background:#ffff00;height:100vh"><input id="q" autofocus
    style="margin:40px;font-size:30px"><script>document.getElementById('q').focus()</script></body></html>
    """

/// Input through the X server as a device would make it (XTest), for another process's window:
/// libXtst is loaded at run time (it is part of every X server install; no header is needed).
@MainActor
enum XTest {
    private typealias Motion = @convention(c) (OpaquePointer?, Int32, Int32, Int32, UInt) -> Int32
    private typealias Button = @convention(c) (OpaquePointer?, UInt32, Int32, UInt) -> Int32
    private typealias Display = @convention(c) (OpaquePointer?) -> OpaquePointer?
    private typealias Flush = @convention(c) (OpaquePointer?) -> Int32

    /// Moves the pointer to (x, y) of the screen and clicks button 1 there.
    static func click(x: Int32, y: Int32) -> Bool {
        guard let xtst = dlopen("libXtst.so.6", RTLD_NOW), let x11 = dlopen("libX11.so.6", RTLD_NOW),
              let motion = dlsym(xtst, "XTestFakeMotionEvent"), let button = dlsym(xtst, "XTestFakeButtonEvent"),
              let flush = dlsym(x11, "XFlush"), let display = dlsym(nil, "gdk_x11_display_get_xdisplay") ?? dlsym(dlopen("libgdk-3.so.0", RTLD_NOW), "gdk_x11_display_get_xdisplay"),
              let gdkDisplay = gdk_display_get_default() else { return false }
        let xDisplay = unsafeBitCast(display, to: Display.self)(gdkDisplay)
        _ = unsafeBitCast(motion, to: Motion.self)(xDisplay, -1, x, y, 0)
        _ = unsafeBitCast(button, to: Button.self)(xDisplay, 1, 1, 0)
        _ = unsafeBitCast(button, to: Button.self)(xDisplay, 1, 0, 0)
        _ = unsafeBitCast(flush, to: Flush.self)(xDisplay)
        return true
    }
}

final class IdleWarningDimsTheWindowTests: XCTestCase {
    /// The real binary in kiosk mode: before the warning the bottom bar and the keyboard are bright;
    /// while it shows, the page, the keyboard and the bottom bar are all dimmed (read from the screen).
    /// The warning comes 1 s after the click and stays 30 s: nothing is waited for in real time
    /// but that second, and the screen is read while the warning is sure to show.
    @MainActor private static func checkDimming(language: String?, name: String) throws {
        let fixture = try BrowserProcessFixture()
        defer { fixture.tearDown() }
        fixture.server.route = { _ in .html(brightPage) }
        let config = fixture.home.write("idle.conf", """
            [Sites]
            Form=\(fixture.server.url("/form"))
            \(language.map { "[Browser]\nlanguages=\($0)" } ?? "")
            [Kiosk]
            enabled=true
            keyboard=true
            idle-timeout=1
            idle-warning=30
            """)
        try fixture.start(["--config", config])
        _ = TestApp.application  // GTK opens the display
        let screen = try XCTUnwrap(gdk_get_default_root_window())
        let width = gdk_window_get_width(screen), height = gdk_window_get_height(screen)
        let bar = GdkRectangle(x: 0, y: height - 40, width: width, height: 30)
        let keyboard = GdkRectangle(x: 0, y: height - 200, width: width, height: 100)
        let page = GdkRectangle(x: 0, y: 200, width: width, height: 100)
        let bright = { (r: UInt8, g: UInt8, b: UInt8) in Int(r) + Int(g) + Int(b) > 450 }
        let yellow = { (r: UInt8, g: UInt8, b: UInt8) in r > 200 && g > 200 && b < 80 }
        // Under the warning's rgba(20, 20, 20, 0.82) the yellow page becomes about (62, 62, 16) and
        // the white keys and bar about (62, 62, 62): a dim area with blue in it was white, so the
        // keyboard and the bar are still there under the warning, not the page showing through.
        let dimYellow = { (r: UInt8, g: UInt8, b: UInt8) in Int(r) + Int(g) + Int(b) < 200 && r > 35 && b < 30 }
        let dimWhite = { (r: UInt8, g: UInt8, b: UInt8) in Int(r) + Int(g) + Int(b) < 200 && b > 40 }
        let half = { (area: GdkRectangle) in Int(area.width * area.height) / 2 }
        XCTAssertTrue(UI.wait(30) { UI.countScreenPixels(in: page, name: name + "-page", where: yellow) > half(page) }, "the page is up")
        XCTAssertTrue(UI.wait(10) { UI.countScreenPixels(in: keyboard, name: name + "-keyboard", where: bright) > half(keyboard) },
                      "the keyboard is up and bright")
        XCTAssertTrue(UI.wait(10) { UI.countScreenPixels(in: bar, name: name + "-bar", where: bright) > half(bar) }, "the bottom bar is bright")
        // A visitor was here: a click on the page through the X server (XTest), as a finger would
        // (the kiosk counts idle time only after someone used it). The kiosk's input hook is on its
        // window from the start: the window on screen counts the click.
        XCTAssertTrue(XTest.click(x: 200, y: 60), "XTest is there")  // on the field: the keyboard stays up
        // The other process draws when it draws: each area is waited for on the screen, not read once.
        XCTAssertTrue(UI.wait(15) { UI.countScreenPixels(in: page, name: name + "-page-dim", where: dimYellow) > half(page) }, "the warning dims the page")
        XCTAssertTrue(UI.wait(10) { UI.countScreenPixels(in: keyboard, name: name + "-keyboard-dim", where: dimWhite) > half(keyboard) }, "and the keyboard")
        XCTAssertTrue(UI.wait(10) { UI.countScreenPixels(in: bar, name: name + "-bar-dim", where: dimWhite) > half(bar) }, "and the bottom bar")
        _ = UI.countScreenPixels(name: name, where: { _, _, _ in false })
    }

    func testTheIdleWarningDimsTheWholeWindow() throws {
        try MainActor.assumeIsolated { try Self.checkDimming(language: nil, name: "idle-warning") }
    }

    func testTheIdleWarningDimsTheWholeWindowInRussian() throws {
        try MainActor.assumeIsolated { try Self.checkDimming(language: "ru", name: "idle-warning-ru") }
    }
}

@MainActor
private func boolProperty(_ widget: UnsafeMutablePointer<GtkWidget>, _ name: String) -> Bool {
    var value = GValue()
    g_value_init(&value, GType(5 << 2))  // G_TYPE_BOOLEAN
    defer { g_value_unset(&value) }
    g_object_get_property(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GObject.self), name, &value)
    return g_value_get_boolean(&value) != 0
}

/// The pointer moves to (x, y) of the page, as a mouse's motion reaches WebKit.
@MainActor
private func movePointer(x: Double, y: Double, in window: BrowserWindow) {
    guard let view = window.webView else { return }
    let widget = UnsafeMutableRawPointer(view).assumingMemoryBound(to: GtkWidget.self)
    guard let gdkWindow = gtk_widget_get_window(widget) else { return }
    let event = gdk_event_new(GDK_MOTION_NOTIFY)!
    event.pointee.motion.window = gdkWindow
    g_object_ref(UnsafeMutableRawPointer(gdkWindow))
    event.pointee.motion.send_event = 1
    event.pointee.motion.time = guint32(GDK_CURRENT_TIME)
    event.pointee.motion.x = x
    event.pointee.motion.y = y
    gdk_event_set_device(event, gdk_seat_get_pointer(gdk_display_get_default_seat(gdk_window_get_display(gdkWindow))))
    gtk_widget_event(widget, event)
    gdk_event_free(event)
}

final class CurrentSiteMarkTests: XCTestCase {
    /// The Open (desk) or Sites (kiosk) menu marks the site the page is on, and follows it.
    @MainActor private static func checkMark(count: Int, kiosk: Bool, shot: String) {
        let server = TestServer()
        defer { server.stop() }
        server.route = { request in .html("<!DOCTYPE html><title>Page \(request.path)</title><p>\(request.path)</p>") }
        let sites = (0..<count).map { Site(name: "Site \($0)", address: server.url("/s\($0)")) }
        let window = kiosk ? TestApp.window(configuration: TestApp.kioskConfiguration(sites: sites)) : TestApp.window(sites: sites)
        defer { kiosk ? TestApp.destroy(window) : TestApp.close(window) }
        window.goHome()
        XCTAssertTrue(UI.wait { window.headerTitle == "Page /s0" })
        guard let button = kiosk ? window.kioskSitesButton : window.openMenuButton else { return XCTFail("no site button") }
        let marked = { UI.menuItems(of: button).filter { boolProperty($0.button, "active") }.map(\.label) }
        XCTAssertTrue(UI.wait { marked() == ["Site 0"] }, "the current site is marked: \(marked())")
        XCTAssertEqual(UI.menuItems(of: button).first.map { UI.stringProperty(UnsafeMutableRawPointer($0.button), "text") }, "Site 0")
        _ = UI.countScreenPixels(name: shot, where: { _, _, _ in false })
        gtk_toggle_button_set_active(button.cast(), 0)
        window.load(url: server.url("/s2/deeper"))
        XCTAssertTrue(UI.wait { window.headerTitle == "Page /s2/deeper" })
        XCTAssertTrue(UI.wait { marked() == ["Site 2"] }, "a page under a site marks that site: \(marked())")
        gtk_toggle_button_set_active(button.cast(), 0)
        window.load(url: "porthole://start/")
        XCTAssertTrue(UI.wait { marked().isEmpty }, "no site is marked on Porthole's own pages: \(marked())")
        gtk_toggle_button_set_active(button.cast(), 0)
    }

    func testTheOpenMenuMarksTheCurrentSite() { MainActor.assumeIsolated { Self.checkMark(count: 3, kiosk: false, shot: "mark-desk") } }
    func testTheSearchMenuMarksTheCurrentSite() { MainActor.assumeIsolated { Self.checkMark(count: 20, kiosk: false, shot: "mark-desk-20") } }
    func testTheKioskSitesMenuMarksTheCurrentSite() { MainActor.assumeIsolated { Self.checkMark(count: 3, kiosk: true, shot: "mark-kiosk") } }
    func testTheOpenMenuMarksTheCurrentSiteInChinese() throws {
        try speaking(["zh-CN"]) { MainActor.assumeIsolated { Self.checkMark(count: 3, kiosk: false, shot: "mark-desk-zh") } }
    }
}

final class LinkPreviewTests: XCTestCase {
    /// At the desk, the link under the pointer shows its address and whether it is on the list.
    @MainActor private static func checkPreview() throws {
        let server = TestServer()
        defer { server.stop() }
        let blocked = "https://elsewhere.example/page"
        server.route = { _ in .html("""
            <!DOCTYPE html><title>Links</title><body style="margin:0">
            <a id="in" href="/s1" style="position:absolute;left:0;top:0;width:200px;height:40px;display:block">in</a>
            <a id="out" href="\(blocked)" style="position:absolute;left:0;top:100px;width:200px;height:40px;display:block">out</a></body>
            """) }
        let configuration = Configuration(sites: SiteList([Site(name: "Home", address: server.url("/s0")), Site(name: "One", address: server.url("/s1"))]))
        let window = TestApp.window(configuration: configuration)
        defer { TestApp.close(window) }
        window.goHome()
        XCTAssertTrue(UI.wait { window.headerTitle == "Links" })
        XCTAssertNil(window.linkPreviewText)
        movePointer(x: 50, y: 20, in: window)
        let onList = tr("{url} — on the list of sites").replacing("{url}", with: server.url("/s1"))
        XCTAssertTrue(UI.wait { window.linkPreviewText == onList }, "hovering an approved link: \(window.linkPreviewText ?? "nil")")
        _ = UI.countScreenPixels(name: "link-preview-on-\(tr("Back"))", where: { _, _, _ in false })
        movePointer(x: 50, y: 120, in: window)
        let offList = tr("{url} — not on the list: this browser will not open it").replacing("{url}", with: blocked)
        XCTAssertTrue(UI.wait { window.linkPreviewText == offList }, "hovering a link off the list: \(window.linkPreviewText ?? "nil")")
        _ = UI.countScreenPixels(name: "link-preview-off-\(tr("Back"))", where: { _, _, _ in false })
        movePointer(x: 500, y: 300, in: window)
        XCTAssertTrue(UI.wait { window.linkPreviewText == nil }, "off any link it goes")
    }

    func testHoveringALinkSaysWhereItGoesAndWhetherItIsOnTheList() throws {
        try MainActor.assumeIsolated { try Self.checkPreview() }
    }

    func testHoveringALinkInGerman() throws {
        try speaking(["de"]) {
            XCTAssertNotEqual(tr("{url} — on the list of sites"), "{url} — on the list of sites", "German is checked")
            try MainActor.assumeIsolated { try Self.checkPreview() }
        }
    }
}

/// Issue 23 item 12: under plain Xvfb (no compositor) the real binary showed an opaque panel in
/// the window's background colour below the refusal notice's card, about twice the card's height,
/// hiding the page; in-process windows did not. It came from the revealer's slide-down transition
/// (with no transition, or looked at a second later, the card alone shows), so the notice now
/// appears without one. Judged on the screen: in the rows where the page shows (rows with yellow
/// in them; the header bar has none), nothing is grey.
final class NoticePanelTests: XCTestCase {
    /// The real binary on a yellow page whose link to a site off the list is refused: the notice
    /// card shows at the top, and around it (left, right, below) the page is still yellow, with no
    /// grey panel under the card (read from the screen; looked at in the pictures).
    @MainActor private static func checkNoPanel(kiosk: Bool, name: String) throws {
        let fixture = try BrowserProcessFixture()
        defer { fixture.tearDown() }
        fixture.server.route = { _ in .html("""
            <!DOCTYPE html><html><body style="margin:0;background:#ffff00;height:100vh">
            <script>setTimeout(function () { location.href = 'https://off-the-list.example/'; }, 2500)</script></body></html>
            """) }
        let config = fixture.home.write("notice.conf", """
            [Sites]
            Yellow=\(fixture.server.url("/yellow"))
            \(kiosk ? "[Kiosk]\nenabled=true" : "")
            """)
        try fixture.start(["--config", config])
        _ = TestApp.application
        let screen = try XCTUnwrap(gdk_get_default_root_window())
        let width = gdk_window_get_width(screen)
        let top = GdkRectangle(x: 0, y: 0, width: width, height: 200)
        let grey = { (r: UInt8, g: UInt8, b: UInt8) in abs(Int(r) - Int(g)) < 12 && abs(Int(g) - Int(b)) < 12 && r > 150 && r < 250 }
        let yellow = { (r: UInt8, g: UInt8, b: UInt8) in r > 200 && g > 200 && b < 80 }
        // The notice is up: dark card pixels (the OSD style) at the top of the page.
        let dark = { (r: UInt8, g: UInt8, b: UInt8) in Int(r) + Int(g) + Int(b) < 200 }
        XCTAssertTrue(UI.wait(30) { UI.countScreenPixels(in: top, name: name + "-top", where: yellow) > Int(top.width * top.height) / 3 }, "the page is up")
        // One capture of the top of the screen: the card's dark pixels, and the grey pixels in the
        // rows where the page shows (rows with yellow in them; the header bar has none).
        func look() -> (dark: Int, grey: Int, pageRows: Int) {
            guard let pixbuf = gdk_pixbuf_get_from_window(screen, 0, 0, width, top.height),
                  let pixels = gdk_pixbuf_get_pixels(pixbuf) else { return (0, 0, 0) }
            defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            let channels = Int(gdk_pixbuf_get_n_channels(pixbuf)), stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
            var darkCount = 0, greyCount = 0, rows = 0
            for row in 0..<Int(top.height) {
                let line = pixels + row * stride
                let rgb = (0..<Int(width)).map { (line[$0 * channels], line[$0 * channels + 1], line[$0 * channels + 2]) }
                darkCount += rgb.filter { dark($0.0, $0.1, $0.2) }.count
                guard rgb.filter({ yellow($0.0, $0.1, $0.2) }).count > 100 else { continue }
                rows += 1
                greyCount += rgb.filter { grey($0.0, $0.1, $0.2) }.count
            }
            return (darkCount, greyCount, rows)
        }
        // The first picture with the notice in it already has no panel: the card comes in one
        // frame, with the page drawn around it. (The card's light text is ~1,500 grey pixels; the
        // panel was over 30,000.)
        var seen = (dark: 0, grey: 0, pageRows: 0)
        XCTAssertTrue(UI.wait(30) { seen = look(); return seen.dark > 2000 }, "the refusal notice shows")
        XCTAssertLessThan(seen.grey, 8000, "no grey panel as the notice comes (\(seen.grey) grey pixels in \(seen.pageRows) rows of the page)")
        // The panel came with the slide-down transition's end, within a second of the card. The
        // browser is another process, with no frame to sync on: every picture for 1.5 s is read.
        var worst = seen
        UI.wait(1.5) {
            let now = look()
            if now.dark > 2000, now.grey > worst.grey { worst = now }
            return false
        }
        _ = UI.countScreenPixels(in: top, name: name + "-top", where: { _, _, _ in false })
        XCTAssertLessThan(worst.grey, 8000, "no grey panel around the notice (\(worst.grey) grey pixels in \(worst.pageRows) rows of the page)")
        let pageRows = seen.pageRows
        XCTAssertGreaterThan(pageRows, 100, "the page shows in the top rows")
        _ = UI.countScreenPixels(name: name, where: { _, _, _ in false })
    }

    func testNoGreyPanelUnderTheRefusalNoticeAtTheDesk() throws {
        try MainActor.assumeIsolated { try Self.checkNoPanel(kiosk: false, name: "notice-desk") }
    }

    func testNoGreyPanelUnderTheRefusalNoticeInKioskMode() throws {
        try MainActor.assumeIsolated { try Self.checkNoPanel(kiosk: true, name: "notice-kiosk") }
    }
}
