// The web process layer's pure parts: what a request is, what it refuses, and the policy's trip
// through a GVariant to each web process.
import CGLib
@testable import PortholeCore
import Foundation
import XCTest

final class WebProcessPolicyTests: XCTestCase {
    /// Headers as WebKitGTK 2.50.6 sets them before send-request (seen in the web process).
    func testRequestsAreToldApartByTheHeadersWebKitSets() {
        let documentAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
        let rows: [(dest: String?, accept: String?, expected: RequestDestination, why: String)] = [
            ("document", documentAccept, .document, "main frame over https"),
            ("iframe", documentAccept, .document, "frame over https"),
            ("frame", documentAccept, .document, "<frame>"),
            ("embed", "*/*", .document, "embed may be a document: fail closed"),
            ("object", "*/*", .document, "object may be a document: fail closed"),
            ("something-new", "*/*", .document, "a destination Fetch does not list: fail closed"),
            ("image", "image/webp,image/avif,video/*;q=0.8,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5", .subresource, "img"),
            ("script", "*/*", .subresource, "script"),
            ("style", "text/css,*/*;q=0.1", .subresource, "style sheet"),
            ("font", "*/*", .subresource, "font"),
            ("video", "*/*", .subresource, "video"),
            ("empty", "*/*", .subresource, "fetch, XHR, beacon"),
            ("EMPTY", "*/*", .subresource, "header values compare without case"),
            ("empty", documentAccept, .subresource, "Sec-Fetch-Dest wins over an Accept a page set"),
            (nil, documentAccept, .document, "plain-http navigation"),
            (nil, "text/html", .document, "any Accept naming HTML"),
            (nil, "application/xhtml+xml", .document, "XHTML"),
            (nil, "*/*", .subresource, "plain-http script, fetch, XHR"),
            (nil, "text/css,*/*;q=0.1", .subresource, "plain-http style sheet"),
            (nil, "image/png,image/*;q=0.8", .subresource, "plain-http image"),
            (nil, nil, .document, "no header at all (media's first request): fail closed"),
            (nil, "", .document, "an empty Accept: fail closed"),
        ]
        for row in rows {
            XCTAssertEqual(RequestDestination(secFetchDest: row.dest, accept: row.accept), row.expected, row.why)
        }
    }

    func testWhatTheWebProcessRefuses() {
        let apple = Site(name: "Apple", address: "https://apple.com/")
        let rows: [(subresources: SubresourcePolicy, url: String, destination: RequestDestination, refused: Bool)] = [
            (.allow, "https://apple.com/", .document, false),
            (.allow, "https://www.apple.com/mac", .document, false),
            (.allow, "https://evil.example/", .document, true),
            (.allow, "https://apple.com.evil.example/", .document, true),
            (.allow, "https://evil.example/pixel.png", .subresource, false),
            (.policy, "https://evil.example/pixel.png", .subresource, true),
            (.policy, "https://www.apple.com/pixel.png", .subresource, false),
            (.policy, "wss://evil.example/socket", .subresource, true),
            (.allow, "file:///etc/passwd", .document, true),
            (.policy, "file:///etc/passwd", .subresource, true),
            (.allow, "porthole://start/", .document, false),
            // The UI process decides these as navigations; they fetch nothing from a host.
            (.policy, "data:text/html,hi", .document, false),
            (.policy, "blob:https://evil.example/uuid", .subresource, false),
            (.policy, "about:blank", .document, false),
        ]
        for row in rows {
            let rules = WebProcessPolicy(sites: [apple], subresources: row.subresources)
            let refusal = rules.refusal(of: row.url, destination: row.destination, policy: rules.compile())
            XCTAssertEqual(refusal != nil, row.refused, "\(row.subresources) \(row.url) \(row.destination)")
        }
    }

    func testThePolicyTravelsToAWebProcessUnchanged() {
        let rules = WebProcessPolicy(sites: [Site(name: "Ä \"quoted\"", address: "https://apple.com/mac"), Site(name: "Intranet", address: "intranet:8080")],
                                     allow: ["example.org/path?q=1"], block: ["*", "ads.apple.com"], subresources: .policy)
        let variant = g_variant_ref_sink(rules.encoded())!
        defer { g_variant_unref(variant) }
        XCTAssertEqual(WebProcessPolicy(variant: variant), rules)
        let wrong = g_variant_ref_sink(g_variant_new_string("(sa(ss)asas)"))!
        defer { g_variant_unref(wrong) }
        XCTAssertNil(WebProcessPolicy(variant: wrong), "another type is refused, not misread")
    }

    func testSubresourcesKeyReadsAllowOrPolicy() throws {
        let directory = try TemporaryConfigDirectory()
        defer { directory.remove() }
        func load(_ text: String) throws -> ConfigLoadResult {
            let file = try directory.write("porthole.conf", "[Sites]\nApple=apple.com\n" + text)
            return ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: URLFilter.validator)
        }
        for (text, expected) in [("allow", SubresourcePolicy.allow), ("policy", .policy)] {
            let result = try load("[Policy]\nsubresources=\(text)\n")
            XCTAssertEqual(result.problems.map(\.description), [])
            XCTAssertEqual(result.effectiveConfiguration.subresources, expected)
            XCTAssertEqual(WebProcessPolicy(configuration: result.effectiveConfiguration).subresources, expected)
        }
        let wrong = try load("[Policy]\nsubresources=block\n")
        XCTAssertEqual(wrong.problems.count, 1)
        XCTAssertTrue(wrong.problems.first?.description.contains("expected one of allow, policy") ?? false, "\(wrong.problems)")
        XCTAssertEqual(try load("").effectiveConfiguration.subresources, .allow, "allow is the default")
    }
}

/// The WebSocket rules (WebSockets never pass send-request): WebKit content rules, in order.
final class WebSocketRulesTests: XCTestCase {
    private func rules(_ policy: WebProcessPolicy) -> [(filter: String, action: String)] {
        guard let json = policy.webSocketRules(),
              let list = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: [String: Any]]] else { return [] }
        return list.map { (($0["trigger"]?["url-filter"] as? String) ?? "?", ($0["action"]?["type"] as? String) ?? "?") }
    }

    func testNoRulesWhenSubresourcesAreAllowed() {
        XCTAssertNil(WebProcessPolicy(sites: [Site(name: "A", address: "apple.com")]).webSocketRules())
    }

    func testRulesLiftTheBlockOnlyForWholeAllowedHostsFromLeastToMostSpecific() {
        let policy = WebProcessPolicy(sites: [Site(name: "Apple", address: "https://apple.com/mac"), Site(name: "Start", address: "porthole://start/")],
                                      allow: ["www.ads.apple.com", "example.org/docs", "https://secure.example", ".exact.example", "intranet:8080"],
                                      block: ["*", "ads.apple.com", "apple.com/private", "[::1]"], subresources: .policy)
        let expected: [(String, String)] = [
            ("^wss?://", "block"),
            ("^wss?://([a-z0-9-]+\\.)*intranet:8080/", "ignore-previous-rules"),
            ("^wss?://([a-z0-9-]+\\.)*apple\\.com(:[0-9]+)?/", "ignore-previous-rules"),
            ("^wss?://([a-z0-9-]+\\.)*ads\\.apple\\.com(:[0-9]+)?/", "block"),
            ("^wss?://([a-z0-9-]+\\.)*www\\.ads\\.apple\\.com(:[0-9]+)?/", "ignore-previous-rules"),
            ("^wss?://exact\\.example(:[0-9]+)?/", "ignore-previous-rules"),
            // Narrower than a host: the whole host is blocked again; an odd host blocks every WebSocket.
            ("^wss?://([a-z0-9-]+\\.)*apple\\.com(:[0-9]+)?/", "block"),
            ("^wss?://", "block"),
        ]
        let actual = rules(policy)
        XCTAssertEqual(actual.map(\.filter), expected.map(\.0))
        XCTAssertEqual(actual.map(\.action), expected.map(\.1))
    }

    func testAHostPatternCannotBeSatisfiedThroughUserinfo() throws {
        let policy = WebProcessPolicy(sites: [Site(name: "Apple", address: "apple.com")], subresources: .policy)
        let pattern = try XCTUnwrap(rules(policy).last?.filter)
        let regex = try Regex(pattern).ignoresCase()
        XCTAssertNotNil(try regex.prefixMatch(in: "wss://www.apple.com/socket"))
        XCTAssertNotNil(try regex.prefixMatch(in: "ws://apple.com:8080/"))
        for url in ["ws://apple.com:1@evil.example/", "ws://apple.com@evil.example/", "ws://apple.com.evil.example/", "ws://evilapple.com/"] {
            XCTAssertNil(try regex.prefixMatch(in: url), url)
        }
    }
}
