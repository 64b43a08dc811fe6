// Canonicalisation table, and the fast path checked against the GUri path on every test URL.
import XCTest
@testable import PortholeCore

final class URLCanonicalTests: XCTestCase {
    /// One row a case: input, canonical string (nil: refused), host, effective port.
    /// Expectations follow the WHATWG URL standard (https://url.spec.whatwg.org/): host parsing
    /// and the IPv4 parser (§3.5), IPv6 serialisation (§3.7), default ports, percent-encode sets
    /// (§1.3), and RFC 3986 §5.2.4 for dot segments.
    static let table: [(input: String, canonical: String?, host: String, port: Int?)] = [
        // Case, trailing dot, default ports.
        ("HTTPS://APPLE.com./x", "https://apple.com/x", "apple.com", 443),
        ("http://APPLE.com./x", "http://apple.com/x", "apple.com", 80),
        ("https://apple.com", "https://apple.com/", "apple.com", 443),
        ("https://apple.com:443/", "https://apple.com/", "apple.com", 443),
        ("http://apple.com:80/a", "http://apple.com/a", "apple.com", 80),
        ("http://apple.com:8080/a", "http://apple.com:8080/a", "apple.com", 8080),
        ("https://apple.com:0443/", "https://apple.com/", "apple.com", 443),
        ("https://apple.com:80/", "https://apple.com:80/", "apple.com", 80),
        ("HTTPS://Apple.com.:443/a/../b", "https://apple.com/b", "apple.com", 443),
        ("ws://chat.example:80/s", "ws://chat.example/s", "chat.example", 80),
        ("wss://chat.example/s", "wss://chat.example/s", "chat.example", 443),
        ("ftp://files.example/pub", "ftp://files.example/pub", "files.example", 21),
        ("https://apple.com:/", "https://apple.com/", "apple.com", 443),
        // IDN to punycode.
        ("https://\u{0430}pple.com/", "https://xn--pple-43d.com/", "xn--pple-43d.com", 443),
        ("http://B\u{00FC}cher.DE/", "http://xn--bcher-kva.de/", "xn--bcher-kva.de", 80),
        ("http://%C3%A9.com/", "http://xn--9ca.com/", "xn--9ca.com", 80),
        ("https://xn--pple-43d.com/", "https://xn--pple-43d.com/", "xn--pple-43d.com", 443),
        // UTS #46 mapping, as the WHATWG host parser does it: ideographic and fullwidth dots are
        // dots, fullwidth letters are letters, soft hyphens vanish, ß stays (non-transitional).
        ("https://www.apple\u{3002}com/", "https://www.apple.com/", "www.apple.com", 443),
        ("https://www.apple\u{FF0E}com\u{3002}/", "https://www.apple.com/", "www.apple.com", 443),
        ("https://WWW.\u{FF21}PPLE.com/", "https://www.apple.com/", "www.apple.com", 443),
        ("https://a\u{00AD}pple.com/", "https://apple.com/", "apple.com", 443),
        ("https://fa\u{00DF}.de/", "https://xn--fa-hia.de/", "xn--fa-hia.de", 443),
        // IPv4 numeric forms (WHATWG IPv4 parser).
        ("http://0x7f.1/", "http://127.0.0.1/", "127.0.0.1", 80),
        ("http://2130706433/", "http://127.0.0.1/", "127.0.0.1", 80),
        ("http://127.1/", "http://127.0.0.1/", "127.0.0.1", 80),
        ("http://0177.0.0.1/", "http://127.0.0.1/", "127.0.0.1", 80),
        ("http://0X7F.0.0.1/", "http://127.0.0.1/", "127.0.0.1", 80),
        ("http://127.0.0.1./", "http://127.0.0.1/", "127.0.0.1", 80),
        ("http://192.168.257/", "http://192.168.1.1/", "192.168.1.1", 80),
        ("http://0xc0a80102/", "http://192.168.1.2/", "192.168.1.2", 80),
        ("http://3232235778/", "http://192.168.1.2/", "192.168.1.2", 80),
        ("http://0x/", "http://0.0.0.0/", "0.0.0.0", 80),
        ("http://0x7f.0x0.0x0.0x1/", "http://127.0.0.1/", "127.0.0.1", 80),
        ("http://1.2.3.4%2e/", "http://1.2.3.4/", "1.2.3.4", 80),
        ("http://256.0.0.1/", nil, "", nil),
        ("http://1.2.3.4.5/", nil, "", nil),
        ("http://4294967296/", nil, "", nil),
        ("http://1.2.3.09/", nil, "", nil),
        ("http://example.123/", nil, "", nil),
        // IPv6.
        ("http://[::FFFF:1.2.3.4]/", "http://[::ffff:102:304]/", "[::ffff:102:304]", 80),
        ("http://[0:0:0:0:0:0:0:1]:8080/x", "http://[::1]:8080/x", "[::1]", 8080),
        ("http://[2001:DB8::0:1]/", "http://[2001:db8::1]/", "[2001:db8::1]", 80),
        ("http://[2001:db8:0:0:1:0:0:1]/", "http://[2001:db8::1:0:0:1]/", "[2001:db8::1:0:0:1]", 80),
        ("http://[1:0:1:0:1:0:1:0]/", "http://[1:0:1:0:1:0:1:0]/", "[1:0:1:0:1:0:1:0]", 80),
        ("http://[::127.0.0.1]/", "http://[::7f00:1]/", "[::7f00:1]", 80),
        ("http://[fe80::1%25eth0]/", nil, "", nil),
        ("http://[1::2::3]/", nil, "", nil),
        // Percent-encoding and dot segments.
        ("http://a.example/%7e%41b", "http://a.example/~Ab", "a.example", 80),
        ("http://a.example/%3a%2f", "http://a.example/%3A%2F", "a.example", 80),
        ("http://a.example/a b", "http://a.example/a%20b", "a.example", 80),
        ("http://a.example/\u{00E9}t\u{00E9}", "http://a.example/%C3%A9t%C3%A9", "a.example", 80),
        ("http://a.example/%c3%a9", "http://a.example/%C3%A9", "a.example", 80),
        ("http://a.example/{x}\"<>`", "http://a.example/%7Bx%7D%22%3C%3E%60", "a.example", 80),
        ("http://a.example/x/../y/./z", "http://a.example/y/z", "a.example", 80),
        ("http://a.example/%2e%2e/x", "http://a.example/x", "a.example", 80),
        ("http://a.example/docs/%2E%2E/admin", "http://a.example/admin", "a.example", 80),
        ("http://a.example/p?q=a b&r='x'&s=%7e", "http://a.example/p?q=a%20b&r=%27x%27&s=~", "a.example", 80),
        ("https://apple.com/?", "https://apple.com/", "apple.com", 443),
        ("https://apple.com?x=1", "https://apple.com/?x=1", "apple.com", 443),
        // Userinfo and fragment dropped.
        ("https://user:pass@apple.com/", "https://apple.com/", "apple.com", 443),
        ("https://apple.com@evil.example/", "https://evil.example/", "evil.example", 443),
        ("https://a@b@evil.example/", "https://evil.example/", "evil.example", 443),
        ("https://apple.com/p#frag", "https://apple.com/p", "apple.com", 443),
        ("https://apple.com/p?x#f?g", "https://apple.com/p?x", "apple.com", 443),
        // Browser spellings (WHATWG special-scheme parsing).
        ("https:\\\\evil.example\\@apple.com/", "https://evil.example/@apple.com/", "evil.example", 443),
        ("https:apple.com/x", "https://apple.com/x", "apple.com", 443),
        ("https:///apple.com", "https://apple.com/", "apple.com", 443),
        ("  https://apple.com/  ", "https://apple.com/", "apple.com", 443),
        ("https://ap\tple.com/\n", "https://apple.com/", "apple.com", 443),
        ("http://apple.com%2eevil.example/", "http://apple.com.evil.example/", "apple.com.evil.example", 80),
        ("http://apple.com%2F@evil.example/", "http://evil.example/", "evil.example", 80),
        // Opaque schemes keep their body, lose the fragment.
        ("javascript:alert(1)", "javascript:alert(1)", "", nil),
        ("DATA:text/html,hi#x", "data:text/html,hi", "", nil),
        ("about:blank", "about:blank", "", nil),
        ("blob:https://apple.com/5a1e", "blob:https://apple.com/5a1e", "", nil),
        ("view-source:https://apple.com/", "view-source:https://apple.com/", "", nil),
        ("porthole:start", "porthole:start", "", nil),
        ("Custom-App://host/x", "custom-app://host/x", "", nil),
        // file: URLs have a path and no port.
        ("file:///srv/kiosk/a b", "file:///srv/kiosk/a%20b", "", nil),
        ("file://localhost/etc/hosts", "file:///etc/hosts", "", nil),
        ("file:/srv/x", "file:///srv/x", "", nil),
        ("file:///srv/x/../y", "file:///srv/y", "", nil),
        // Refused.
        ("", nil, "", nil),
        ("nocolon", nil, "", nil),
        ("/relative/path", nil, "", nil),
        ("https://", nil, "", nil),
        ("http://a b/", nil, "", nil),
        ("http://exa%20mple.com/", nil, "", nil),
        ("http://a..b/", nil, "", nil),
        ("http://.apple.com/", nil, "", nil),
        ("https://apple.com:99999/", nil, "", nil),
        ("http://ex<ample.com/", nil, "", nil),
        // Hosts WHATWG keeps whole but GUri ends early, or that DNS cannot hold (URL standard,
        // section 3.2: only the "forbidden host code points" are refused by browsers).
        ("https://good.example;.evil.example/", nil, "", nil),
        ("https://good.example,.evil.example/", nil, "", nil),
        ("https://good.example!.evil.example/", nil, "", nil),
        ("https://good.example%3b.evil.example/", nil, "", nil),
        ("https://good.example\u{FF1B}.evil.example/", nil, "", nil),
        ("https://good.example:443;x/", nil, "", nil),
        ("https://[::1];x/", nil, "", nil),
    ]

    func testCanonicalForms() {
        for row in URLCanonicalTests.table {
            let url = CanonicalURL(row.input)
            XCTAssertEqual(url?.string, row.canonical, "canonical form of \(row.input.debugDescription)")
            guard let url else { continue }
            XCTAssertEqual(url.host, row.host, "host of \(row.input.debugDescription)")
            XCTAssertEqual(url.port, row.port, "port of \(row.input.debugDescription)")
        }
    }

    func testComponentsOfACanonicalURL() throws {
        let url = try CanonicalURL.parse("HTTPS://User@WWW.Apple.COM.:8443/a/%7Eb?x=1&y#top")
        XCTAssertEqual(url.string, "https://www.apple.com:8443/a/~b?x=1&y")
        XCTAssertEqual(url.scheme, "https")
        XCTAssertEqual(url.host, "www.apple.com")
        XCTAssertEqual(url.port, 8443)
        XCTAssertEqual(url.path, "/a/~b")
        XCTAssertEqual(url.query, "x=1&y")
        XCTAssertFalse(url.isIPAddress)
        XCTAssertTrue(try CanonicalURL.parse("http://[::1]/").isIPAddress)
        XCTAssertTrue(try CanonicalURL.parse("http://0x7f.1/").isIPAddress)
    }

    func testLongWhitespaceIsTrimmedInLinearTime() {
        let padding = String(repeating: " ", count: 200_000)
        XCTAssertEqual(CanonicalURL(padding + "https://apple.com/" + padding)?.string, "https://apple.com/")
        XCTAssertEqual(try URLFilter.parse(padding + "apple.com" + padding).host, "apple.com")
    }

    func testRefusalSaysWhy() {
        XCTAssertThrowsError(try CanonicalURL.parse("http://256.0.0.1/")) { error in
            XCTAssertEqual((error as? URLParseError)?.reason,
                           "host \"256.0.0.1\" ends in a number but is not a valid IPv4 address")
        }
        XCTAssertThrowsError(try CanonicalURL.parse("nocolon")) { error in
            XCTAssertEqual((error as? URLParseError)?.description,
                           "not a valid URL \"nocolon\": it has no scheme (such as https:)")
        }
    }

    /// Canonicalising twice changes nothing.
    func testCanonicalFormIsStable() {
        for row in URLCanonicalTests.table {
            guard let once = row.canonical else { continue }
            XCTAssertEqual(CanonicalURL(once)?.string, once, "re-canonicalising \(once)")
            XCTAssertEqual(try? CanonicalURL.parseWithGUri(once).string, once, "GUri on \(once)")
        }
    }

    /// The fast path for canonical http(s) URLs must agree with the GUri path wherever it
    /// answers: same string and same layout. Run on every URL the test suite uses.
    func testFastPathAgreesWithGUriOnEveryTestURL() {
        var inputs = URLCanonicalTests.table.map(\.input)
        inputs += URLCanonicalTests.table.compactMap(\.canonical)
        inputs += PolicyChromeFormatTests.cases.map(\.url)
        inputs += PolicyBypassTests.allURLs
        inputs += URLCanonicalTests.fastPathProbes
        var answered = 0
        for input in inputs {
            var text = input
            let fast: (URLLayout, Int, Int)? = text.withUTF8 { bytes in
                CanonicalURL.fastLayout(bytes).map { ($0.0, $0.end, bytes.count) }
            }
            guard let (layout, end, count) = fast else { continue }
            answered += 1
            let slow = try? CanonicalURL.parseWithGUri(input)
            XCTAssertNotNil(slow, "GUri refuses \(input) but the fast path accepts it")
            XCTAssertEqual(slow?.layout, layout, "layout of \(input)")
            XCTAssertEqual(slow?.string, String(decoding: input.utf8.prefix(end), as: UTF8.self), "string of \(input)")
            XCTAssertLessThanOrEqual(end, count)
        }
        XCTAssertGreaterThan(answered, 60, "the fast path should answer for most canonical URLs")
    }

    /// Canonical and nearly canonical URLs that probe each fast-path check.
    static let fastPathProbes: [String] = [
        "https://www.apple.com/", "https://www.apple.com/mac/", "http://a-b_c.example/x",
        "https://apple.com/a;b=c/d@e:f!$&'()*+,", "https://apple.com/p?q=1&r=a/b?c:d@e",
        "https://apple.com/%20x%3A", "https://apple.com/%41", "https://apple.com/%7E", "https://apple.com/%e9",
        "https://apple.com/a/./b", "https://apple.com/a/../b", "https://apple.com/.", "https://apple.com/..",
        "https://apple.com/.a/..b/...", "https://apple.com/a/.", "https://apple.com/%2E",
        "https://apple.com:443/", "https://apple.com:8443/", "https://apple.com:08443/", "https://apple.com:0/",
        "https://apple.com:65535/", "https://apple.com:65536/", "https://apple.com:123456/", "http://apple.com:80/",
        "https://apple.com", "https://apple.com?x", "https://apple.com#x", "https://apple.com/?", "https://apple.com/?#",
        "https://apple.com/#frag ment", "https://apple.com/p?q=it's", "https://apple.com/p?q=a%27b",
        "https://APPLE.com/", "HTTPS://apple.com/", "https://apple.com./", "https://.apple.com/", "https://a..b/",
        "https://1.2.3.4/", "https://apple.123/", "https://apple.0x1f/", "https://1apple.com/", "https://apple.c0m/",
        "https://user@apple.com/", "https://apple.com\\x/", "https://apple.com/a\\b", "https://apple.com/a b",
        "https://apple.com/a\u{00E9}", "https://xn--pple-43d.com/", "https://\u{0430}pple.com/",
        "https://" + String(repeating: "a", count: 63) + ".com/", "https://" + String(repeating: "a", count: 64) + ".com/",
        "https://" + Array(repeating: "abcdefghi", count: 25).joined(separator: ".") + "/",
        "https://" + Array(repeating: "abcdefghi", count: 26).joined(separator: ".") + "/",
        "https://apple.com/{}", "https://apple.com/[x]", "https://apple.com/^|", "https://apple.com/a%2", "https://apple.com/100%",
        "http://example.com/stuff/x?v=1&w=2", "ws://chat.example/", "https:/apple.com/", "https:apple.com/",
    ]
}
