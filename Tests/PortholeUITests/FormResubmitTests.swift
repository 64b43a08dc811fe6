// Reloading the result of a form: the visitor is asked before it is sent again (judged by the
// POSTs the server received).
import CWebKitGtk
import PortholeUI
import TestSupport
import XCTest

final class FormResubmitTests: XCTestCase {
    func testReloadingAFormResultAsksBeforeSendingItAgain() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in
                switch request.path {
                case "/result": return .html("<title>Thanks</title><p>Your order was sent.</p>")
                case "/sentinel": return .html("<title>Sentinel</title><p>later</p>")
                default: return .html("<title>Order</title><form id=f method=post action='/result'><input name=q value=1></form>")
                }
            }
            let posts = { server.requests.filter { $0.path == "/result" && $0.method == "POST" }.count }
            let window = TestApp.window(on: server, sites: [("Order", "/form")], showing: "Order")
            defer { TestApp.close(window) }
            _ = UI.evaluate("document.getElementById('f').submit(); 'sent'", in: window)
            XCTAssertTrue(UI.wait { window.headerTitle == "Thanks" })
            XCTAssertEqual(posts(), 1)

            UI.press(UInt32(GDK_KEY_F5), in: window)
            XCTAssertTrue(UI.wait { ResubmitQuestion.current != nil }, "Reload asks before sending the form again")
            ResubmitQuestion.current?.respond(false)
            // The reload WebKit began shows "Loading…" until the refused load ends and the next
            // frame draws the header again: read it then, not at once.
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/result")), "the refused reload ends on the result page")
            XCTAssertEqual(window.headerTitle, "Thanks", "Cancel keeps the page")

            UI.press(UInt32(GDK_KEY_F5), in: window)
            XCTAssertTrue(UI.wait { ResubmitQuestion.current != nil })
            ResubmitQuestion.current?.respond(true)
            XCTAssertTrue(UI.wait { posts() == 2 }, "Send Again sends it")

            // Nothing more was sent: the server has seen a later page by now.
            window.load(url: server.url("/sentinel"))
            XCTAssertTrue(UI.wait { server.requests.contains { $0.path == "/sentinel" } })
            XCTAssertEqual(posts(), 2, "Cancel sent nothing")
        }
    }
}
