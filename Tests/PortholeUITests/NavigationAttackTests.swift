// The three attack classes of issue 9, at a desk and in kiosk mode, judged by what the test
// server received: a page must never get a blocked host fetched as a page or run a data: document
// top-level, and no context-menu item may send a request to a blocked host.
import CWebKitGtk
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

private func page(_ title: String, _ body: String = "") -> String {
    "<!DOCTYPE html><html><head><title>\(title)</title></head><body><h1>\(title)</h1>\(body)</body></html>"
}

/// An approved apple.com and a blocked evil.example, both answered by one proxied test server.
@MainActor
private final class AttackFixture {
    let server = TestServer()
    let window: BrowserWindow
    let connections = SignalConnections()

    init(kiosk: Bool, home: String) {
        server.route = { request in
            if request.host == "evil.example" { return .html(page("EVIL")) }
            if request.path == "/" { return .html(home) }
            return .html(page("\(request.host)\(request.path)"))
        }
        TestApp.engine.setProxy(server.proxyURI)
        let sites = [Site(name: "Apple", address: "http://apple.com/")]
        window = TestApp.window(configuration: kiosk ? TestApp.kioskConfiguration(sites: sites) : Configuration(sites: SiteList(sites)))
        window.goHome()
        XCTAssertTrue(UI.wait { self.window.coordinator.uri == "http://apple.com/" && !self.window.coordinator.isLoading }, "the approved page loads")
    }

    var evilRequests: [TestRequest] { server.requests.filter { $0.host == "evil.example" } }

    /// Proves that nothing more reaches the server from what came before: a later request the
    /// server sees (a sentinel page Porthole loads) is ordered after it.
    func syncOnSentinel(_ name: String = "sentinel") {
        window.load(url: "http://apple.com/\(name)")
        XCTAssertTrue(UI.wait { self.server.count(path: "/\(name)") == 1 }, "the sentinel request arrives")
        XCTAssertTrue(UI.wait { self.window.coordinator.uri == "http://apple.com/\(name)" && !self.window.coordinator.isLoading })
    }

    func tearDown() {
        connections.disconnectAll()
        TestApp.destroy(window)
        TestApp.engine.setProxy(nil)
        server.stop()
    }
}

final class NavigationAttackTests: XCTestCase {
    /// Issue 9 attack 1: window.open, frames to a blocked host racing the load, and "Stay on Page"
    /// answers that abandon Porthole's own loads, then a script navigation to the blocked host.
    private func frameRaceWithStayOnPage(kiosk: Bool) {
        MainActor.assumeIsolated {
            let fixture = AttackFixture(kiosk: kiosk, home: page("Apple", """
                <button id=b style="position:fixed;left:0;top:0;width:400px;height:200px" onclick="window.hold=1;
                 window.open('/sub/blank.html');
                 for(var i=0;i<4;i++){var f=document.createElement('iframe');f.src='http://evil.example/nav/X';document.body.appendChild(f);}
                 setTimeout(function(){window.hold=0;location.href='http://evil.example/nav/X'},1500)">CLICK</button>
                <script>addEventListener('beforeunload',function(e){if(window.hold){e.preventDefault();e.returnValue='stay';}})</script>
                """))
            defer { fixture.tearDown() }
            var stays = 0
            // Answer every beforeunload question with "Stay on Page", as the attack needs.
            fixture.connections.connect(UnsafeMutableRawPointer(fixture.window.webView!), "script-dialog", .pointerReturningBool { dialog in
                guard let dialog = dialog.map(OpaquePointer.init),
                      webkit_script_dialog_get_dialog_type(dialog) == WEBKIT_SCRIPT_DIALOG_BEFORE_UNLOAD_CONFIRM else { return false }
                webkit_script_dialog_confirm_set_confirmed(dialog, 0)
                stays += 1
                return true
            })
            UI.clickPage(x: 100, y: 100, in: fixture.window)
            // Four frames and the script navigation are refused; the window.open load may run.
            XCTAssertTrue(UI.wait { fixture.window.refusals.filter { $0.uri == "http://evil.example/nav/X" }.count >= 5 },
                          "every navigation to the blocked host was refused: \(fixture.window.refusals.map(\.uri))")
            XCTAssertGreaterThan(stays, 0, "the page's beforeunload question was answered with Stay")
            fixture.syncOnSentinel()
            XCTAssertEqual(fixture.evilRequests, [], "the blocked host received nothing")
            XCTAssertNotEqual(fixture.window.headerTitle, "EVIL")
            XCTAssertNotEqual(fixture.window.headerSubtitle, "evil.example")
        }
    }

    func testFramesRacingAWindowOpenLoadNeverReachABlockedHostAtADesk() { frameRaceWithStayOnPage(kiosk: false) }
    func testFramesRacingAWindowOpenLoadNeverReachABlockedHostInKioskMode() { frameRaceWithStayOnPage(kiosk: true) }

    /// Issue 9 attack 2: a data: document dropped on the view must not run top-level.
    private func droppedDataURL(kiosk: Bool) {
        MainActor.assumeIsolated {
            let fixture = AttackFixture(kiosk: kiosk, home: page("Apple"))
            defer { fixture.tearDown() }
            let document = "<title>DROPPED</title><img src='http://apple.com/dropped-ran'>"
            let url = "data:text/html;base64," + Data(document.utf8).base64EncodedString()
            let log = EventLog(fixture.window)
            // The entry point the drag handler calls for a drop from another application.
            fixture.window.coordinator.dropped(url + "\r\n")
            fixture.syncOnSentinel()
            XCTAssertEqual(fixture.server.count(path: "/dropped-ran"), 0, "the dropped document never ran")
            if kiosk {
                // A kiosk takes no drops at all: refused as a drop, before any URL is looked at.
                XCTAssertEqual(log.refusals, ["drop"], "the kiosk refused the drop")
                XCTAssertFalse(fixture.window.refusals.contains { $0.uri == url }, "no navigation to it was even asked for")
            } else {
                // At a desk a drop is decided like a typed address; a data: document is refused.
                XCTAssertEqual(fixture.window.refusals.map(\.uri), [url], "the dropped data: URL was refused")
                XCTAssertEqual(log.refusals, [])
            }
        }
    }

    func testADroppedDataURLDoesNotRunAtADesk() { droppedDataURL(kiosk: false) }
    func testADroppedDataURLDoesNotRunInKioskMode() { droppedDataURL(kiosk: true) }

    func testADroppedLinkIsDecidedLikeATypedAddress() {
        MainActor.assumeIsolated {
            let fixture = AttackFixture(kiosk: false, home: page("Apple"))
            defer { fixture.tearDown() }
            fixture.window.coordinator.dropped("http://evil.example/dropped")
            XCTAssertTrue(UI.wait { fixture.window.headerTitle == "Blocked" }, "the Blocked page shows")
            XCTAssertNil(fixture.window.headerSubtitle, "the header never shows the blocked host")
            XCTAssertTrue(fixture.window.coordinator.uri?.hasPrefix("porthole://blocked/") ?? false, "served under porthole: \(fixture.window.coordinator.uri ?? "nil")")
            fixture.window.coordinator.dropped("http://apple.com/dropped")
            XCTAssertTrue(UI.wait { fixture.server.count(path: "/dropped", host: "apple.com") == 1 }, "an approved drop loads")
            XCTAssertEqual(fixture.evilRequests, [])
        }
    }

    /// Issue 9 attack 3: "Download Linked File" on a link to a blocked host sent the request.
    private func contextMenuDownload(kiosk: Bool) {
        MainActor.assumeIsolated {
            let fixture = AttackFixture(kiosk: kiosk, home: page("Apple", """
                <a href="http://evil.example/file.zip" style="position:fixed;left:0;top:0;width:400px;height:200px;display:block">get it</a>
                """))
            defer { fixture.tearDown() }
            var actions: [WebKitContextMenuAction]?
            // Connected after Porthole's handler, so it sees the menu as Porthole left it; it keeps
            // the menu off screen.
            fixture.connections.connect(UnsafeMutableRawPointer(fixture.window.webView!), "context-menu", .threePointersReturningBool { menu, _, _ in
                guard let menu = menu?.assumingMemoryBound(to: WebKitContextMenu.self) else { return true }
                actions = (0..<webkit_context_menu_get_n_items(menu)).compactMap { index in
                    webkit_context_menu_get_item_at_position(menu, index).map { webkit_context_menu_item_get_stock_action($0) }
                }
                return true
            })
            let log = EventLog(fixture.window)
            UI.clickPage(x: 100, y: 100, button: 3, in: fixture.window)
            if kiosk {
                XCTAssertTrue(UI.wait(5) { log.refusals.contains("context-menu") }, "kiosk mode has no context menu")
                XCTAssertNil(actions)
            } else {
                XCTAssertTrue(UI.wait(5) { actions != nil }, "the menu was asked for")
                XCTAssertTrue(actions?.contains(WEBKIT_CONTEXT_MENU_ACTION_OPEN_LINK) ?? false, "it is a link's menu")
                XCTAssertFalse(actions?.contains(WEBKIT_CONTEXT_MENU_ACTION_DOWNLOAD_LINK_TO_DISK) ?? true, "no download item")
            }
            fixture.syncOnSentinel()
            XCTAssertEqual(fixture.evilRequests, [], "the blocked host received nothing")
        }
    }

    func testTheContextMenuOffersNoDownloadOfABlockedLinkAtADesk() { contextMenuDownload(kiosk: false) }
    func testTheContextMenuOffersNoDownloadOfABlockedLinkInKioskMode() { contextMenuDownload(kiosk: true) }

    func testTheBlockedPageIsPortholesOwnAndBackLeavesNoBlockedURLInHistory() {
        MainActor.assumeIsolated {
            let fixture = AttackFixture(kiosk: false, home: page("Apple"))
            defer { fixture.tearDown() }
            fixture.window.load(url: "http://evil.example/steal")
            XCTAssertTrue(UI.wait { fixture.window.headerTitle == "Blocked" && !fixture.window.coordinator.isLoading })
            XCTAssertEqual(UI.evaluate("location.protocol", in: fixture.window), "porthole:", "the page has Porthole's origin")
            XCTAssertNil(fixture.window.headerSubtitle)
            let list = webkit_web_view_get_back_forward_list(fixture.window.webView!)
            var uris: [String] = []
            for step in -5...5 {
                if let item = webkit_back_forward_list_get_nth_item(list, Int32(step)), let uri = webkit_back_forward_list_item_get_uri(item) {
                    uris.append(String(cString: uri))
                }
            }
            XCTAssertFalse(uris.contains { $0.contains("evil.example") }, "history: \(uris)")
            fixture.window.coordinator.goBack()
            XCTAssertTrue(UI.wait { fixture.window.coordinator.uri == "http://apple.com/" })
            XCTAssertEqual(fixture.evilRequests, [])
        }
    }
}
