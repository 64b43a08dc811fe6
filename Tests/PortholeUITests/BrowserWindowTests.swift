// The real window and WebKitWebView under Xvfb against a SoupServer on 127.0.0.1.
import CWebKitGtk
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

private func page(_ title: String, _ body: String = "") -> String {
    "<!DOCTYPE html><html><head><title>\(title)</title></head><body><h1>\(title)</h1>\(body)</body></html>"
}

final class BrowserWindowTests: XCTestCase {
    func testFirstSiteLoadsAndItsTitleAppearsInTheHeader() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in request.path == "/a" ? .html(page("Site A")) : .html(page("Site B")) }
            let window = TestApp.window(sites: [Site(name: "A", address: server.url("/a")), Site(name: "B", address: server.url("/b"))])
            defer { TestApp.close(window) }
            window.goHome()
            XCTAssertTrue(UI.wait { window.headerTitle == "Site A" }, "header shows \(window.headerTitle ?? "nil")")
            XCTAssertEqual(window.headerSubtitle, "127.0.0.1")
            XCTAssertEqual(server.count(path: "/a"), 1)
            XCTAssertEqual(server.count(path: "/b"), 0)
        }
    }

    func testHeaderSaysLoadingWhileLoadingAndProgressBarAdvancesToCompletion() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            let images = (0..<6).map { "<img src=\"/img\($0).svg\" width=10 height=10>" }.joined()
            server.route = { request in
                switch request.path {
                case "/": .html(page("Images", images))
                case "/img5.svg": .hold("<svg xmlns='http://www.w3.org/2000/svg'/>")
                default: .body("<svg xmlns='http://www.w3.org/2000/svg'/>", mimeType: "image/svg+xml")
                }
            }
            let window = TestApp.window(sites: [Site(name: "Images", address: server.url("/"))])
            defer { TestApp.close(window) }
            // Stop and Reload hand over without the button going insensitive in between (a grey
            // flash at both ends of every load, and a restyle and repaint of the bar).
            var insensitive = 0
            let watch = SignalConnections()
            defer { watch.disconnectAll() }
            watch.connect(UnsafeMutableRawPointer(window.refreshStopButton), "notify::sensitive", .pointer { _ in
                if gtk_widget_get_sensitive(window.refreshStopButton) == 0 { insensitive += 1 }
            })
            window.goHome()
            // The last image is held back: the page is part-loaded and the bar shows it.
            XCTAssertTrue(UI.wait { server.count(path: "/img5.svg") == 1 })
            XCTAssertTrue(UI.wait { window.progressFraction > 0 }, "the progress bar fills while loading")
            XCTAssertLessThan(window.progressFraction, 1.0)
            XCTAssertEqual(window.headerTitle, "Loading…")
            XCTAssertEqual(window.refreshButtonAction, "win.stop", "the refresh button is Stop while loading")
            XCTAssertEqual(window.refreshIconName, "process-stop-symbolic", "and shows Stop's icon")
            server.releaseHeld()
            XCTAssertTrue(UI.waitForLoad(window))
            XCTAssertEqual(window.state.progress, 1.0, accuracy: 0.0001, "progress reached completion")
            // The chrome shows it at the next frame GTK draws.
            XCTAssertTrue(UI.wait { window.progressFraction == 0 }, "the progress bar is empty when the load is done")
            XCTAssertTrue(UI.wait { window.refreshButtonAction == "win.reload" })
            XCTAssertEqual(window.refreshIconName, "view-refresh-symbolic", "the refresh button shows Reload's icon again")
            XCTAssertEqual(insensitive, 0, "the refresh button stayed sensitive from Reload to Stop and back")
            XCTAssertTrue(UI.wait { window.headerTitle == "Images" })
        }
    }

    func testRefreshButtonMakesTheServerSeeASecondRequest() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html(page("Counter")) }
            let window = TestApp.window(on: server, sites: [("Counter", "/count")], showing: "Counter")
            defer { TestApp.close(window) }
            XCTAssertEqual(window.headerTitle, "Counter")
            XCTAssertEqual(server.count(path: "/count"), 1)
            gtk_button_clicked(window.refreshStopButton.cast())
            XCTAssertTrue(UI.wait { server.count(path: "/count") == 2 })
            XCTAssertTrue(UI.waitForLoad(window))
            UI.press(UInt32(GDK_KEY_F5), in: window)
            XCTAssertTrue(UI.wait { server.count(path: "/count") == 3 }, "F5 reloads")
            XCTAssertTrue(UI.waitForLoad(window))
            UI.press(UInt32(GDK_KEY_r), modifiers: GDK_CONTROL_MASK, in: window)
            XCTAssertTrue(UI.wait { server.count(path: "/count") == 4 }, "Ctrl+R reloads")
        }
    }

    func testChoosingASiteFromTheOpenMenuLoadsIt() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in .html(page(request.path == "/a" ? "First" : "Second")) }
            let window = TestApp.window(sites: [Site(name: "First site", address: server.url("/a")),
                                                Site(name: "Second site", address: server.url("/b"))])
            defer { TestApp.close(window) }
            window.goHome()
            XCTAssertTrue(UI.wait { window.headerTitle == "First" })

            let items = UI.openMenuItems(window)
            XCTAssertEqual(items.map(\.label), ["First site", "Second site"], "the menu lists the approved sites by name")
            guard let second = items.first(where: { $0.label == "Second site" })?.button else { return XCTFail("no Second site item") }
            gtk_button_clicked(second.cast())
            XCTAssertTrue(UI.wait { window.headerTitle == "Second" })
            XCTAssertEqual(server.count(path: "/b"), 1)
        }
    }

    func testTheChosenSiteHasTheKeyboardFocusSoAKeyScrollsIt() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            let tall = "<div style='height:5000px'>tall</div>"
            server.route = { request in .html("<title>Page \(request.path)</title>" + (request.path == "/b" ? tall : "")) }
            let window = TestApp.window(on: server, sites: [("First site", "/a"), ("Second site", "/b")], showing: "Page /a")
            defer { TestApp.close(window) }
            gtk_widget_grab_focus(window.openMenuButton)  // as a click on it or Tab to it does
            let items = UI.openMenuItems(window)
            guard let second = items.first(where: { $0.label == "Second site" })?.button else { return XCTFail("no Second site item") }
            gtk_button_clicked(second.cast())
            XCTAssertTrue(UI.wait { window.headerTitle == "Page /b" && !window.state.isLoading })
            let popover = UnsafeMutablePointer<GtkWidget>(OpaquePointer(gtk_menu_button_get_popover(window.openMenuButton.cast())!))
            XCTAssertTrue(UI.wait(5) { gtk_widget_get_mapped(popover) == 0 }, "the menu closed")
            UI.press(UInt32(GDK_KEY_Page_Down), in: window)
            XCTAssertTrue(UI.wait(5) { (Double(UI.evaluate("window.scrollY", in: window) ?? "0") ?? 0) > 0 }, "Page Down scrolls the page")
        }
    }

    func testNewOptionsUpdateTheOpenMenu() {
        MainActor.assumeIsolated {
            let window = TestApp.window(sites: [Site(name: "Old", address: "old.example")])
            defer { TestApp.close(window) }
            XCTAssertEqual(UI.openMenuItems(window).map(\.label), ["Old"])
            gtk_toggle_button_set_active(window.openMenuButton.cast(), 0)
            var options = window.options
            options.sites = SiteList([Site(name: "New one", address: "new.example"), Site(name: "New two", address: "two.example")])
            window.update(options: options)
            XCTAssertEqual(UI.openMenuItems(window).map(\.label), ["New one", "New two"], "a reloaded site list reaches the Open menu")
        }
    }

    func testOpenMenuEscapeCancelsWithoutLoading() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html(page("Only")) }
            let window = TestApp.window(on: server, sites: [("Only", "/")], showing: "Only")
            defer { TestApp.close(window) }
            XCTAssertEqual(window.headerTitle, "Only")
            let button = window.openMenuButton
            gtk_toggle_button_set_active(button.cast(), 1)
            let popover = UnsafeMutablePointer<GtkWidget>(OpaquePointer(gtk_menu_button_get_popover(button.cast())))!
            XCTAssertTrue(UI.wait { gtk_widget_get_mapped(popover) != 0 })
            UI.press(UInt32(GDK_KEY_Escape), in: window)
            XCTAssertTrue(UI.wait { gtk_widget_get_visible(popover) == 0 }, "Escape closes the menu")
            // A later load the server sees: had Escape loaded anything, it would have come first.
            window.load(url: server.url("/sentinel"))
            XCTAssertTrue(UI.wait { server.count(path: "/sentinel") == 1 })
            XCTAssertEqual(server.count(path: "/"), 1, "nothing was loaded")
        }
    }

    func testAltLeftGoesBackAndAltRightGoesForward() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in .html(page(request.path == "/one" ? "One" : "Two")) }
            let window = TestApp.window(on: server, sites: [("One", "/one")], showing: "One")
            defer { TestApp.close(window) }
            XCTAssertEqual(window.headerTitle, "One")
            XCTAssertFalse(window.action("back")!.isEnabled, "Back is off with no history")
            window.load(url: server.url("/two"))
            XCTAssertTrue(UI.wait { window.headerTitle == "Two" })
            XCTAssertTrue(UI.wait { window.action("back")!.isEnabled })

            UI.press(UInt32(GDK_KEY_Left), modifiers: GDK_MOD1_MASK, in: window)
            XCTAssertTrue(UI.wait { window.headerTitle == "One" }, "Alt+Left goes back")
            XCTAssertTrue(UI.wait { window.action("forward")!.isEnabled })
            UI.press(UInt32(GDK_KEY_Right), modifiers: GDK_MOD1_MASK, in: window)
            XCTAssertTrue(UI.wait { window.headerTitle == "Two" }, "Alt+Right goes forward")
        }
    }

    func testMouseButtonsEightAndNineGoBackAndForward() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in .html(page(request.path == "/one" ? "One" : "Two")) }
            let window = TestApp.window(on: server, sites: [("One", "/one")], showing: "One")
            defer { TestApp.close(window) }
            XCTAssertEqual(window.headerTitle, "One")
            window.load(url: server.url("/two"))
            XCTAssertTrue(UI.wait { window.headerTitle == "Two" && window.coordinator.canGoBack })
            UI.click(button: 8, on: window)
            XCTAssertTrue(UI.wait { window.headerTitle == "One" }, "button 8 goes back")
            XCTAssertTrue(UI.wait { window.coordinator.canGoForward })
            UI.click(button: 9, on: window)
            XCTAssertTrue(UI.wait { window.headerTitle == "Two" }, "button 9 goes forward")
        }
    }

    func testConnectionRefusedShowsTheErrorPageWithTheErrorText() {
        MainActor.assumeIsolated {
            // A port that was just free: nothing listens there.
            let closed = TestServer()
            let deadURL = closed.url("/gone?a=<b>")
            closed.stop()
            let window = TestApp.window(sites: [Site(name: "Dead", address: deadURL)])
            defer { TestApp.close(window) }
            var failures: [String] = []
            window.goHome()
            XCTAssertTrue(UI.wait { window.headerTitle == "Error" }, "header shows \(window.headerTitle ?? "nil")")
            XCTAssertTrue(UI.waitForLoad(window))
            let text = UI.bodyText(window)
            XCTAssertTrue(text.contains("This page could not be loaded"), text)
            XCTAssertTrue(text.contains("The site could not be reached"), "plain words: \(text)")
            XCTAssertTrue(UI.evaluate("document.querySelector('details').textContent", in: window)?.localizedCaseInsensitiveContains("connect") ?? false,
                          "the error text is there, folded away")
            XCTAssertTrue(text.contains("/gone?a="), "the failing URL is shown: \(text)")
            XCTAssertEqual(UI.evaluate("document.querySelectorAll('b').length", in: window), "0", "the URL is escaped, not markup")
            XCTAssertEqual(UI.evaluate("[...document.querySelectorAll('a')].map(a => a.textContent).join(',')", in: window), "Retry,Home")
            XCTAssertEqual(window.headerTitle, "Error")
            failures.append(text)
        }
    }

    func testARestrictedPortShowsTheErrorPage() {
        MainActor.assumeIsolated {
            // Port 9 (discard) is one WebKit refuses to use, as every browser does.
            let window = TestApp.window(sites: [Site(name: "Discard", address: "http://127.0.0.1:9/")])
            defer { TestApp.close(window) }
            window.goHome()
            XCTAssertTrue(UI.wait { window.headerTitle == "Error" }, "header shows \(window.headerTitle ?? "nil")")
            XCTAssertTrue(UI.waitForLoad(window))
            let text = UI.bodyText(window)
            XCTAssertTrue(text.contains("http://127.0.0.1:9/") && text.contains("Port 9"), text)
        }
    }

    func testSwipeNavigationFollowsTheSetting() {
        MainActor.assumeIsolated {
            let on = TestApp.window(sites: [])
            XCTAssertEqual(webkit_settings_get_enable_back_forward_navigation_gestures(webkit_web_view_get_settings(on.webView)), 1)
            TestApp.close(on)
            var settings = WebViewSettings()
            settings.backForwardGestures = false
            let off = TestApp.window(sites: [], settings: settings)
            defer { TestApp.close(off) }
            XCTAssertEqual(webkit_settings_get_enable_back_forward_navigation_gestures(webkit_web_view_get_settings(off.webView)), 0)
        }
    }

    func testBrowserSettingsReachThePage() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in
                request.path == "/ua" ? .body("ok", mimeType: "text/plain")
                    : .html("<title>Static</title><script>document.title = 'Scripted'</script>")
            }
            let settings = WebViewSettings(javascript: false, zoom: 1.5, userAgentSuffix: "Porthole-Test-Kiosk")
            let window = TestApp.window(sites: [Site(name: "Page", address: server.url("/"))], settings: settings)
            defer { TestApp.close(window) }
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/")))
            XCTAssertTrue(UI.wait { window.headerTitle == "Static" }, "javascript=false: the page's script did not run")
            XCTAssertEqual(webkit_web_view_get_zoom_level(window.webView), 1.5, accuracy: 0.001)
            let agent = webkit_settings_get_user_agent(webkit_web_view_get_settings(window.webView)).map { String(cString: $0) } ?? ""
            XCTAssertTrue(agent.hasSuffix(" Porthole-Test-Kiosk"), agent)
        }
    }

    func testStopStopsASlowLoad() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in request.path == "/slow" ? .hold(page("Slow")) : .html(page("Fast")) }
            let window = TestApp.window(on: server, sites: [("Fast", "/fast")], showing: "Fast")
            defer { TestApp.close(window) }
            XCTAssertEqual(window.headerTitle, "Fast")
            window.load(url: server.url("/slow"))
            XCTAssertTrue(UI.wait { server.count(path: "/slow") == 1 && window.state.isLoading })
            XCTAssertTrue(UI.wait { window.refreshButtonAction == "win.stop" }, "the next frame shows Stop")
            gtk_button_clicked(window.refreshStopButton.cast())
            XCTAssertTrue(UI.wait { !window.state.isLoading }, "Stop ends the load")
            XCTAssertTrue(UI.wait { window.refreshButtonAction == "win.reload" && window.progressFraction == 0 },
                          "the next frame shows Reload and an empty bar")
            XCTAssertNotEqual(window.headerTitle, "Error", "a stopped load is not an error")
        }
    }

    func testEscapeStopsASlowLoad() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .hold(page("Slow")) }
            let window = TestApp.window(sites: [Site(name: "Slow", address: server.url("/slow"))])
            defer { TestApp.close(window) }
            window.goHome()
            XCTAssertTrue(UI.wait { server.count(path: "/slow") == 1 && window.state.isLoading })
            UI.press(UInt32(GDK_KEY_Escape), in: window)
            XCTAssertTrue(UI.wait { !window.state.isLoading }, "Escape stops")
        }
    }

    func testStartPageIsServedFromInsideTheProgramAndListsTheSites() {
        MainActor.assumeIsolated {
            let window = TestApp.window(sites: [Site(name: "Start page", address: PortholePage.startURL),
                                                Site(name: "Apple <Inc>", address: "apple.com"),
                                                Site(name: "Hacking with Swift", address: "hackingwithswift.com")])
            defer { TestApp.close(window) }
            window.goHome()
            XCTAssertTrue(UI.wait { window.headerTitle == "Start page" })
            XCTAssertNil(window.headerSubtitle, "Porthole's own pages have no host")
            let links = UI.evaluate("[...document.querySelectorAll('a.site')].map(a => a.textContent + '=' + a.href).join('|')", in: window)
            XCTAssertEqual(links, "Apple <Inc>=https://apple.com/|Hacking with Swift=https://hackingwithswift.com/")
        }
    }

    func testLoadsAnHTMLStringALocalFileAndRawBytes() throws {
        try MainActor.assumeIsolated {
            let window = TestApp.window(sites: [])
            defer { TestApp.close(window) }
            window.load(.html("<title>From a string</title><p>inline</p>", baseURI: nil))
            XCTAssertTrue(UI.wait { window.headerTitle == "From a string" })

            let path = NSTemporaryDirectory() + "porthole-test-\(getpid()).html"
            try "<title>From a file</title><p>on disk</p>".write(toFile: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: path) }
            window.load(.file(path: path))
            XCTAssertTrue(UI.wait { window.headerTitle == "From a file" })
            XCTAssertEqual(window.coordinator.uri, "file://" + path)

            window.load(.bytes(Array("plain text bytes".utf8), mimeType: "text/plain", baseURI: nil))
            XCTAssertTrue(UI.wait { UI.bodyText(window).contains("plain text bytes") })
        }
    }

    func testUnchangedContentIsNotLoadedTwiceButARepeatedRequestIs() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html(page("Once")) }
            let window = TestApp.window(on: server, sites: [("Once", "/once")], showing: "Once")
            defer { TestApp.close(window) }
            XCTAssertEqual(window.headerTitle, "Once")
            // Re-applying the same options re-runs update with the same content: no new load.
            window.update(options: window.options)
            window.load(url: server.url("/sentinel"))
            XCTAssertTrue(UI.wait { server.count(path: "/sentinel") == 1 }, "a later load the server sees")
            XCTAssertEqual(server.count(path: "/once"), 1)
            window.goHome()
            XCTAssertTrue(UI.wait { server.count(path: "/once") == 2 }, "asking again loads again")
        }
    }

    func testClosingTheWindowStopsTheLoadInProgress() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .hold(page("Never")) }
            let window = TestApp.window(sites: [Site(name: "Slow", address: server.url("/slow"))])
            defer { TestApp.close(window) }
            window.goHome()
            XCTAssertTrue(UI.wait { server.count(path: "/slow") == 1 && window.coordinator.isLoading })
            // A later handler keeps the window open, so what the close request did stays visible.
            let keepOpen = connectSignal(UnsafeMutableRawPointer(window.window!), "delete-event", .pointerReturningBool { _ in true })
            gtk_window_close(window.window!.cast())
            XCTAssertTrue(UI.wait { !window.coordinator.isLoading }, "the close request stopped the load")
            g_signal_handler_disconnect(UnsafeMutableRawPointer(window.window!), gulong(keepOpen))
        }
    }
}
