// The in-window notice after a page's navigation is refused, with real host names behind the
// test server's proxy.
import CWebKitGtk
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

final class RefusalNoticeUITests: XCTestCase {
    func testABlockedLinkShowsANoticeNamingTheHostThatLeavesByItself() {
        MainActor.assumeIsolated {
            let server = TestServer()
            server.route = { request in
                if request.host == "apple.com" {
                    return .html("<!DOCTYPE html><title>Apple</title><a id=l href='http://evil.example/x'>evil</a><input id=keep>")
                }
                return .html("<title>\(request.host)</title>")
            }
            TestApp.engine.setProxy(server.proxyURI)
            // The notice's time runs on a clock the test advances.
            let clock = ManualClock()
            let window = TestApp.window(configuration: Configuration(sites: SiteList([Site(name: "Apple", address: "http://apple.com/")])), clock: clock)
            defer {
                TestApp.close(window)
                TestApp.engine.setProxy(nil)
                server.stop()
            }
            window.load(url: "http://apple.com/")
            XCTAssertTrue(UI.wait { window.headerTitle == "Apple" && !window.state.isLoading })
            XCTAssertNil(window.refusalNoticeText, "no notice before anything is refused")
            UI.evaluate("document.getElementById('keep').focus(); document.getElementById('l').click(); 'ok'", in: window)
            XCTAssertTrue(UI.wait { window.refusalNoticeText != nil }, "the notice appears")
            XCTAssertEqual(window.refusalNoticeText, "evil.example is not on this browser's list of sites.")
            XCTAssertEqual(UI.evaluate("document.activeElement.id", in: window), "keep", "the page keeps the focus")
            XCTAssertEqual(window.coordinator.uri, "http://apple.com/")
            clock.advance(by: 5)
            XCTAssertTrue(UI.waitForFrames(of: window.window!, 2))
            XCTAssertNotNil(window.refusalNoticeText, "still there 5 s on")
            clock.advance(by: 1.5)
            XCTAssertTrue(UI.wait { window.refusalNoticeText == nil }, "the notice leaves by itself")
            XCTAssertEqual(server.requests.filter { $0.host == "evil.example" }.count, 0)
        }
    }
}
