// The site policy enforced in WebKit's decide-policy, with real host names: WebKit's proxy is
// set to a SoupServer on 127.0.0.1 that answers for apple.com, www.apple.com and evil.example.
import CWebKitGtk
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

private func page(_ title: String, _ body: String = "") -> String {
    "<!DOCTYPE html><html><head><title>\(title)</title></head><body><h1>\(title)</h1>\(body)</body></html>"
}

/// A proxied server, a window on `http://apple.com/` with only apple.com approved, and cleanup.
@MainActor
private final class Fixture {
    let server = TestServer()
    let window: BrowserWindow

    init(routes: [String: TestResponse] = [:], sites: [Site] = [Site(name: "Apple", address: "http://apple.com/")]) {
        server.route = { request in
            if let response = routes["\(request.host)\(request.path)"] { return response }
            if request.host == "evil.example" { return .html(page("Evil")) }
            return .html(page("\(request.host)\(request.path)"))
        }
        TestApp.engine.setProxy(server.proxyURI)
        window = TestApp.window(configuration: Configuration(sites: SiteList(sites)))
    }

    /// Loads `path` and waits until the window shows it; with `title`, until the header shows
    /// that title (the page before's title stays in the header until the new one arrives).
    func open(_ path: String = "/", title: String? = nil) {
        window.load(url: "http://apple.com\(path)")
        XCTAssertTrue(UI.wait { self.window.state.title != nil && !self.window.state.isLoading && self.window.coordinator.uri == "http://apple.com\(path)"
                          && self.window.isRendered && title.map { self.window.headerTitle == $0 } ?? true },
                      "apple.com\(path) loads; title \(window.headerTitle ?? "nil")")
    }

    var evilRequests: Int { server.requests.filter { $0.host == "evil.example" }.count }

    func waitForRefusal(count: Int = 1) -> Bool { UI.wait { self.window.refusals.count >= count } }

    /// Syncs on a later request the server sees (the page fetches a sentinel), instead of waiting
    /// on the clock to prove that nothing more happened.
    func syncOnSentinel() {
        let before = server.count(path: "/sentinel")
        UI.evaluate("fetch('/sentinel'); 'ok'", in: window)
        XCTAssertTrue(UI.wait { self.server.count(path: "/sentinel") > before }, "the sentinel request arrives")
    }

    func tearDown() {
        TestApp.close(window)
        TestApp.engine.setProxy(nil)
        server.stop()
    }
}

final class SitePolicyTests: XCTestCase {
    func testAnAllowedLinkWorks() {
        MainActor.assumeIsolated {
            let fixture = Fixture(routes: ["apple.com/": .html(page("Apple", "<a id=l href='http://www.apple.com/mac'>Mac</a>"))])
            defer { fixture.tearDown() }
            fixture.open()
            UI.evaluate("document.getElementById('l').click(); 'ok'", in: fixture.window)
            XCTAssertTrue(UI.wait { fixture.window.headerTitle == "www.apple.com/mac" })
            XCTAssertEqual(fixture.window.headerSubtitle, "www.apple.com")
            XCTAssertTrue(fixture.window.refusals.isEmpty)
        }
    }

    func testABlockedLinkLeavesThePageWhereItIs() {
        MainActor.assumeIsolated {
            let fixture = Fixture(routes: ["apple.com/": .html(page("Apple", """
                <a id=l href='http://apple.com.evil.example/'>look-alike</a><input id=keep value=typed>
                """))])
            defer { fixture.tearDown() }
            fixture.open()
            UI.evaluate("document.getElementById('keep').value = 'still here'; document.getElementById('l').click(); 'ok'", in: fixture.window)
            XCTAssertTrue(fixture.waitForRefusal())
            XCTAssertEqual(fixture.window.refusals.first?.uri, "http://apple.com.evil.example/")
            fixture.syncOnSentinel()
            XCTAssertEqual(fixture.window.coordinator.uri, "http://apple.com/")
            XCTAssertEqual(fixture.window.headerTitle, "Apple")
            XCTAssertEqual(UI.evaluate("document.getElementById('keep').value", in: fixture.window), "still here", "the page was not reloaded")
            XCTAssertEqual(fixture.server.requests.filter { $0.host == "apple.com.evil.example" }.count, 0)
        }
    }

    func testABlockedTopLevelLoadShowsTheBlockedPageWithTheFilter() {
        MainActor.assumeIsolated {
            let fixture = Fixture()
            defer { fixture.tearDown() }
            fixture.open()
            fixture.window.load(url: "http://evil.example/steal?x=<b>")
            XCTAssertTrue(UI.wait { fixture.window.headerTitle == "Blocked" }, "header: \(fixture.window.headerTitle ?? "nil")")
            XCTAssertTrue(UI.waitForLoad(fixture.window))
            let text = UI.bodyText(fixture.window)
            XCTAssertTrue(text.contains("http://evil.example/steal?x=<b>"), text)
            XCTAssertEqual(UI.evaluate("document.querySelectorAll('b').length", in: fixture.window), "0", "the URL is text, not markup")
            XCTAssertTrue(text.contains("\"*\""), "the deciding filter is named: \(text)")
            XCTAssertEqual(UI.evaluate("[...document.querySelectorAll('a')].map(a => a.textContent).join(',')", in: fixture.window), "Back,Home")
            XCTAssertEqual(fixture.evilRequests, 0, "nothing reached the blocked host")

            // The Back button on the Blocked page returns to the page before.
            UI.evaluate("document.querySelector('a').click(); 'ok'", in: fixture.window)
            XCTAssertTrue(UI.wait { fixture.window.headerTitle == "apple.com/" })
        }
    }

    func testALoadAskedForWhileTheBlockedPageIsStillShowingWins() {
        MainActor.assumeIsolated {
            let fixture = Fixture()
            defer { fixture.tearDown() }
            fixture.window.load(url: "http://evil.example/")
            fixture.window.load(url: "http://apple.com/after")
            XCTAssertTrue(UI.wait { fixture.window.headerTitle == "apple.com/after" }, "header: \(fixture.window.headerTitle ?? "nil")")
            fixture.syncOnSentinel()
            XCTAssertEqual(fixture.window.headerTitle, "apple.com/after", "the Blocked page did not come back over it")
        }
    }

    func testARedirectFromAnAllowedToABlockedHostIsRefusedAtTheHop() {
        MainActor.assumeIsolated {
            let fixture = Fixture(routes: ["apple.com/go": .redirect(302, to: "http://www.apple.com/hop"),
                                           "www.apple.com/hop": .redirect(301, to: "http://evil.example/landing")])
            defer { fixture.tearDown() }
            fixture.window.load(url: "http://apple.com/go")
            XCTAssertTrue(UI.wait { fixture.window.headerTitle == "Blocked" }, "header: \(fixture.window.headerTitle ?? "nil")")
            XCTAssertEqual(fixture.server.count(path: "/hop", host: "www.apple.com"), 1, "the allowed hop was followed")
            XCTAssertEqual(fixture.evilRequests, 0, "the blocked hop was not")
            XCTAssertTrue(UI.bodyText(fixture.window).contains("http://evil.example/landing"))
        }
    }

    func testEveryRedirectStatusIsCheckedAtEachHop() {
        MainActor.assumeIsolated {
            for code: UInt32 in [301, 302, 303, 307, 308] {
                let fixture = Fixture(routes: ["apple.com/r": .redirect(code, to: "http://evil.example/\(code)")])
                defer { fixture.tearDown() }
                fixture.window.load(url: "http://apple.com/r")
                XCTAssertTrue(UI.wait { fixture.window.headerTitle == "Blocked" }, "\(code): \(fixture.window.headerTitle ?? "nil")")
                XCTAssertEqual(fixture.evilRequests, 0, "\(code)")
            }
        }
    }

    func testMetaRefreshAndScriptLocationChangesToBlockedHostsAreRefused() {
        MainActor.assumeIsolated {
            let fixture = Fixture(routes: [
                "apple.com/meta": .html(page("Meta", "<meta http-equiv='refresh' content='0;url=http://evil.example/meta'>")),
                "apple.com/script": .html(page("Script", "<script>setTimeout(() => location.href = 'http://evil.example/script', 0)</script>")),
            ])
            defer { fixture.tearDown() }
            fixture.open("/meta", title: "Meta")
            XCTAssertTrue(fixture.waitForRefusal())
            XCTAssertEqual(fixture.window.refusals.last?.uri, "http://evil.example/meta")
            fixture.open("/script", title: "Script")
            XCTAssertTrue(fixture.waitForRefusal(count: 2))
            XCTAssertEqual(fixture.window.refusals.last?.uri, "http://evil.example/script")
            fixture.syncOnSentinel()
            XCTAssertEqual(fixture.window.headerTitle, "Script", "the page stays")
            XCTAssertEqual(fixture.evilRequests, 0)
        }
    }

    func testAnIframeFromABlockedHostDoesNotLoad() {
        MainActor.assumeIsolated {
            let fixture = Fixture(routes: ["apple.com/frames": .html(page("Frames", """
                <iframe src='http://www.apple.com/inner'></iframe><iframe src='http://evil.example/inner'></iframe>
                """))])
            defer { fixture.tearDown() }
            fixture.open("/frames")
            XCTAssertTrue(UI.wait { fixture.server.count(path: "/inner", host: "www.apple.com") == 1 }, "the allowed frame loads")
            XCTAssertTrue(fixture.waitForRefusal())
            XCTAssertEqual(fixture.window.refusals.last?.uri, "http://evil.example/inner")
            XCTAssertEqual(fixture.evilRequests, 0, "the blocked frame does not")
            XCTAssertTrue(UI.wait { fixture.window.headerTitle == "Frames" }, "the page itself stays")
        }
    }

    func testTargetBlankAndWindowOpenLoadInTheSameViewWhenAllowedAndAreRefusedOtherwise() {
        MainActor.assumeIsolated {
            // One full-width button at the top of the page; the test clicks it as a user would, so
            // WebKit's popup blocker (which stops window.open without a user gesture) lets it through.
            func opener(_ script: String) -> TestResponse {
                .html(page("Opener", "<button style='position:fixed;left:0;top:0;width:100%;height:200px' onclick=\"\(script)\">go</button>"))
            }
            let fixture = Fixture(routes: [
                "apple.com/": .html(page("Apple", """
                    <a id=good target=_blank href='http://www.apple.com/blank'>good</a>
                    <a id=bad target=_blank href='http://evil.example/blank'>bad</a>
                    """)),
                "apple.com/open-bad": opener("fetch('/clicked'); window.open('http://evil.example/popup')"),
                "apple.com/open-good": opener("window.open('http://www.apple.com/popup')"),
            ])
            defer { fixture.tearDown() }
            fixture.open()
            UI.evaluate("document.getElementById('bad').click(); 'ok'", in: fixture.window)
            XCTAssertTrue(fixture.waitForRefusal())
            XCTAssertEqual(fixture.window.refusals.last?.uri, "http://evil.example/blank")
            XCTAssertEqual(fixture.window.headerTitle, "Apple")
            UI.evaluate("document.getElementById('good').click(); 'ok'", in: fixture.window)
            XCTAssertTrue(UI.wait { fixture.window.headerTitle == "www.apple.com/blank" }, "target=_blank opens in the same view")

            fixture.open("/open-bad")
            UI.clickPage(x: 100, y: 100, in: fixture.window)
            XCTAssertTrue(UI.wait(5) { fixture.server.count(path: "/clicked") == 1 }, "the click reached the page")
            XCTAssertTrue(fixture.waitForRefusal(count: 2), "window.open to a blocked host is refused")
            XCTAssertEqual(fixture.window.refusals.last?.uri, "http://evil.example/popup")
            XCTAssertTrue(UI.wait { fixture.window.headerTitle == "Opener" })
            fixture.open("/open-good")
            UI.clickPage(x: 100, y: 100, in: fixture.window)
            XCTAssertTrue(UI.wait { fixture.window.headerTitle == "www.apple.com/popup" }, "window.open opens in the same view")
            XCTAssertEqual(fixture.evilRequests, 0)
        }
    }

    func testAFormSubmissionToABlockedHostIsRefused() {
        MainActor.assumeIsolated {
            let fixture = Fixture(routes: ["apple.com/": .html(page("Apple", """
                <form id=f method=post action='http://evil.example/collect'><input name=secret value=1></form>
                """))])
            defer { fixture.tearDown() }
            fixture.open()
            UI.evaluate("document.getElementById('f').submit(); 'ok'", in: fixture.window)
            XCTAssertTrue(fixture.waitForRefusal())
            XCTAssertEqual(fixture.window.refusals.last?.uri, "http://evil.example/collect")
            XCTAssertEqual(fixture.evilRequests, 0)
        }
    }

    func testBackAndReloadToAPageThePolicyNoLongerAllowsShowTheBlockedPage() {
        MainActor.assumeIsolated {
            let fixture = Fixture(sites: [Site(name: "Apple", address: "http://apple.com/"), Site(name: "Mac", address: "http://mac.example/")])
            defer { fixture.tearDown() }
            fixture.open("/a")
            fixture.window.load(url: "http://mac.example/")
            XCTAssertTrue(UI.wait { fixture.window.headerTitle == "mac.example/" })
            // The list changes: apple.com is no longer approved.
            let narrowed = Configuration(sites: SiteList([Site(name: "Mac", address: "http://mac.example/")]))
            fixture.window.update(options: BrowserOptions(configuration: narrowed, policy: SitePolicy(configuration: narrowed)))
            let before = fixture.server.count(path: "/a", host: "apple.com")
            UI.press(UInt32(GDK_KEY_Left), modifiers: GDK_MOD1_MASK, in: fixture.window)
            XCTAssertTrue(UI.wait { fixture.window.headerTitle == "Blocked" }, "Back to a no longer approved page: \(fixture.window.headerTitle ?? "nil")")
            XCTAssertEqual(fixture.server.count(path: "/a", host: "apple.com"), before)
            UI.press(UInt32(GDK_KEY_F5), in: fixture.window)
            XCTAssertTrue(fixture.waitForRefusal(count: 2), "reload is decided again")
            XCTAssertEqual(fixture.server.count(path: "/a", host: "apple.com"), before)
        }
    }

    func testTheOpenMenuAndStartPageStillWorkWithThePolicyOn() {
        MainActor.assumeIsolated {
            let fixture = Fixture(sites: [Site(name: "Start page", address: PortholePage.startURL), Site(name: "Apple", address: "http://apple.com/")])
            defer { fixture.tearDown() }
            fixture.window.goHome()
            XCTAssertTrue(UI.wait { fixture.window.headerTitle == "Start page" })
            UI.evaluate("document.querySelector('a.site').click(); 'ok'", in: fixture.window)
            XCTAssertTrue(UI.wait { fixture.window.headerTitle == "apple.com/" })
            XCTAssertTrue(fixture.window.refusals.isEmpty)
        }
    }

    func testSchemesThePolicyRefusesByDefault() {
        MainActor.assumeIsolated {
            let fixture = Fixture()
            defer { fixture.tearDown() }
            fixture.open()
            for uri in ["file:///etc/passwd", "view-source:http://apple.com/", "javascript:alert(1)", "ftp://evil.example/x", "porthole-unknown:thing"] {
                let count = fixture.window.refusals.count
                fixture.window.load(url: uri)
                XCTAssertTrue(UI.wait(5) { fixture.window.refusals.count > count }, "\(uri) is refused")
            }
        }
    }
}
