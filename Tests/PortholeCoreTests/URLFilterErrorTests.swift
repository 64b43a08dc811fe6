// Invalid filters: each is refused with its reason, left out, and never makes a policy wider.
import XCTest
import PortholeCore

final class URLFilterErrorTests: XCTestCase {
    /// One row a case: filter text, reason. Chrome documents `custom:app` and `custom://app` as
    /// invalid and ports as 1–65535; the rest are mistakes Porthole refuses rather than guesses at.
    static let invalid: [(filter: String, reason: String)] = [
        ("", "the filter is empty"),
        ("   ", "the filter is empty"),
        ("#only-a-fragment", "the filter is empty"),
        ("exa mple.com", "it contains a space or a control character"),
        ("example.com/a\tb", "it contains a space or a control character"),
        ("example.com:0", "port \"0\" is not a number from 1 to 65535"),
        ("example.com:65536", "port \"65536\" is not a number from 1 to 65535"),
        ("example.com:-1", "port \"-1\" is not a number from 1 to 65535"),
        ("example.com:http", "port \"http\" is not a number from 1 to 65535"),
        ("example.com:", "port \"\" is not a number from 1 to 65535"),
        ("example.com:8080:80", "host \"example.com:8080\" contains the character \":\""),
        ("*:99999", "port \"99999\" is not a number from 1 to 65535"),
        ("*.example.com", "\"*\" can only stand alone for any host; \"example.com\" already matches its subdomains"),
        ("www.*.com", "\"*\" can only stand alone for any host; \"example.com\" already matches its subdomains"),
        ("example*", "\"*\" can only stand alone for any host; \"example.com\" already matches its subdomains"),
        ("https://*.example.com/", "\"*\" can only stand alone for any host; \"example.com\" already matches its subdomains"),
        (".*", "\".*\" is not a host; write \"*\" for any host"),
        (".", "the host is missing"),
        ("https://", "the host is missing"),
        ("/path/only", "the host is missing"),
        ("?q=1", "the host is missing"),
        ("user@", "the host is missing"),
        ("example..com", "host \"example..com\" has an empty label"),
        ("..example.com", "host \".example.com\" has an empty label"),
        ("exa!mple.com", "host \"exa!mple.com\" may only hold letters, digits, \"-\" and \"_\""),
        ("exa%41mple.com", "host \"exa%41mple.com\" contains the character \"%\""),
        ("256.1.1.1", "host \"256.1.1.1\" ends in a number but is not a valid IPv4 address"),
        ("1.2.3.4.5", "host \"1.2.3.4.5\" ends in a number but is not a valid IPv4 address"),
        ("example.123", "host \"example.123\" ends in a number but is not a valid IPv4 address"),
        ("[::1", "the IPv6 address has no closing \"]\""),
        ("[1::2::3]", "\"1::2::3\" is not a valid IPv6 address"),
        ("[fe80::1%25eth0]", "\"fe80::1%25eth0\" is not a valid IPv6 address"),
        ("[::1]x", "unexpected text after the IPv6 address"),
        (String(repeating: "a", count: 64) + ".com", "host \"" + String(repeating: "a", count: 64) + ".com\" has a label longer than 63 characters"),
        ("custom:app", "the scheme \"custom:\" must be followed by \"//\" (only \"custom:*\" may leave it out)"),
        ("custom://app", "a filter for the \"custom:\" scheme can only be \"custom:*\" or \"custom://*\""),
        ("about:blank", "the scheme \"about:\" must be followed by \"//\" (only \"about:*\" may leave it out)"),
        ("javascript:alert(1)", "the scheme \"javascript:\" must be followed by \"//\" (only \"javascript:*\" may leave it out)"),
        ("blob:https://example.com/", "the scheme \"blob:\" must be followed by \"//\" (only \"blob:*\" may leave it out)"),
        ("file://server/share", "a file: filter names a local path, such as \"file:///srv/kiosk/\""),
        ("file:///srv/kiosk?x=1", "a file: filter cannot have a query"),
        ("data:text/html,a?b", "a data: filter cannot contain \"?\""),
        ("example.com/docs/..", "the path has a \".\" or \"..\" segment"),
        ("example.com/docs/%2e%2E/admin", "the path has a \".\" or \"..\" segment"),
        ("example.com/./x", "the path has a \".\" or \"..\" segment"),
    ]

    func testInvalidFiltersSayWhy() {
        for (text, reason) in URLFilterErrorTests.invalid {
            XCTAssertThrowsError(try URLFilter.parse(text), text.debugDescription) { error in
                XCTAssertEqual(error as? FilterError, FilterError(filter: text, reason: reason), text.debugDescription)
            }
        }
    }

    func testErrorDescriptionQuotesTheFilter() {
        XCTAssertEqual(FilterError(filter: "x:0", reason: "port \"0\" is not a number from 1 to 65535").description,
                       "invalid filter \"x:0\": port \"0\" is not a number from 1 to 65535")
    }

    /// An invalid filter is reported and left out: in an allow list it opens nothing, and a
    /// mangled block filter is never replaced by something that blocks less... or more.
    func testInvalidFiltersAreLeftOutAndNeverWiden() {
        for (text, _) in URLFilterErrorTests.invalid {
            let policy = SitePolicy(allow: [text], block: ["*"])
            XCTAssertEqual(policy.problems.map(\.filter), [text])
            for url in ["https://example.com/", "https://www.example.com/docs/admin", "http://127.0.0.1/",
                        "http://[::1]/", "custom:app", "file:///srv/kiosk/", "https://a.com:65535/"] {
                XCTAssertFalse(policy.isAllowed(url), "\(text.debugDescription) must not allow \(url)")
            }
        }
        let blocked = SitePolicy(allow: ["example.com"], block: ["example.com:0", "*.example.com"])
        XCTAssertEqual(blocked.problems.count, 2)
        XCTAssertEqual(blocked.decide(url: "https://www.example.com/").filter, "example.com")
    }

    func testValidFiltersParseIntoComponents() throws {
        let filter = try URLFilter.parse("HTTPS://user:pw@.WWW.Example.COM.:8443/a%7e/b%20c?x=1&y*#frag")
        XCTAssertEqual(filter.text, "HTTPS://user:pw@.WWW.Example.COM.:8443/a%7e/b%20c?x=1&y*#frag")
        XCTAssertEqual(filter.scheme, "https")
        XCTAssertEqual(filter.host, "www.example.com")
        XCTAssertFalse(filter.matchesSubdomains)
        XCTAssertEqual(filter.port, 8443)
        XCTAssertEqual(filter.path, "/a~/b%20c")
        XCTAssertEqual(filter.query, "x=1&y*")
        XCTAssertEqual(filter.queryTokenCount, 2)

        let any = try URLFilter.parse("*")
        XCTAssertTrue(any.matchesAnyHost)
        XCTAssertNil(any.scheme)
        XCTAssertNil(any.port)

        let ip = try URLFilter.parse("0x7f.1:8080")
        XCTAssertEqual(ip.host, "127.0.0.1")
        XCTAssertFalse(ip.matchesSubdomains)
        XCTAssertEqual(try URLFilter.parse("[0::1]").host, "[::1]")
        XCTAssertEqual(try URLFilter.parse("B\u{00FC}cher.de").host, "xn--bcher-kva.de")
        XCTAssertEqual(try URLFilter.parse("localhost:8080").host, "localhost")
        XCTAssertEqual(try URLFilter.parse("file:///srv/caf%c3%a9/").path, "/srv/caf%C3%A9/")
        XCTAssertEqual(try URLFilter.parse("custom_scheme:*").scheme, "custom_scheme")
    }
}
