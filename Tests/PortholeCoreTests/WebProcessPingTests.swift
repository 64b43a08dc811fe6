// `<a ping>` requests: their redirects are followed where the second layer cannot see them.
import PortholeCore
import XCTest

final class WebProcessPingTests: XCTestCase {
    func testPingsAreRefusedOnlyWhenThePolicyDecidesSubresources() {
        let site = [Site(name: "A", address: "https://a.example/")]
        let policy = WebProcessPolicy(sites: site, subresources: .policy)
        let allow = WebProcessPolicy(sites: site, subresources: .allow)
        // WebKit's PingLoader sets `Content-Type: text/ping` (HTML: hyperlink auditing).
        for type in ["text/ping", "TEXT/PING", "text/ping; charset=utf-8", " text/ping"] {
            XCTAssertNotNil(policy.unfollowableRefusal(contentType: type), type)
            XCTAssertNil(allow.unfollowableRefusal(contentType: type), type)
        }
        for type in [nil, "text/plain", "application/x-www-form-urlencoded", "text/pingx"] {
            XCTAssertNil(policy.unfollowableRefusal(contentType: type), type ?? "none")
        }
    }
}
