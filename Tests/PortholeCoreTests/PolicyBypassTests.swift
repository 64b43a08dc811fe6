// Ways around an approved-site list that must fail, and the special-scheme rules.
import XCTest
import PortholeCore

final class PolicyBypassTests: XCTestCase {
    /// Porthole's usual policy: one approved site, everything else blocked by `*`.
    static let applePolicy = SitePolicy(sites: SiteList([Site(name: "Apple", address: "apple.com")]))

    /// Blocked with only `apple.com` approved. Each is a way the seed's substring check, or a
    /// careless parser, would have let through.
    static let mustBlock: [(url: String, filter: String?)] = [
        ("https://apple.com.evil.example/", "*"),
        ("https://apple.com.evil.example./", "*"),
        ("https://evilapple.com/", "*"),
        ("https://apple.co/", "*"),
        ("https://apple.com@evil.example/", "*"),
        ("https://www.apple.com:pass@evil.example/apple.com", "*"),
        ("https://evil.example/?apple.com", "*"),
        ("https://evil.example/apple.com", "*"),
        ("https://evil.example/#apple.com", "*"),
        ("https://evil.example#.apple.com", "*"),
        ("https://evil.example\\@apple.com/", "*"),
        ("https:\\\\evil.example\\apple.com", "*"),
        ("https://EVIL.example./", "*"),
        ("HTTPS://APPLE.COM.EVIL.EXAMPLE/", "*"),
        ("https://apple.com%2eevil.example/", "*"),
        ("https://\u{0430}pple.com/", "*"),
        ("https://xn--pple-43d.com/", "*"),
        ("https://apple\u{3002}com.evil.example/", "*"),
        ("https://127.0.0.1/", "*"),
        ("https://apple.com:443.evil.example/", nil),
        ("ftp://evil.example/apple.com", "*"),
        ("ws://evil.example/", "*"),
        ("javascript:alert(document.domain)", nil),
        ("JavaScript:location='https://evil.example/'", nil),
        ("view-source:https://apple.com/", nil),
        ("file:///etc/passwd", nil),
        ("file://localhost/etc/passwd", nil),
        ("data:text/html,<script>location='https://evil.example/'</script>", nil),
        ("data:text/html;base64,PGgxPmhpPC9oMT4=", nil),
        ("mailto:someone@apple.com", nil),
        ("itms-apps://apple.com/app", nil),
        ("about:config", nil),
        ("blob:https://evil.example/5a1e", "*"),
        ("blob:null/5a1e", nil),
        ("https://apple..com/", nil),
        ("https://apple.com evil.example/", nil),
        ("", nil),
        ("apple.com", nil),
        ("//apple.com/", nil),
    ]

    /// Allowed with only `apple.com` approved.
    static let mustAllow: [(url: String, filter: String?)] = [
        ("https://apple.com/", "apple.com"),
        ("https://www.apple.com/", "apple.com"),
        ("http://APPLE.com./x", "apple.com"),
        ("https://support.apple.com/en-us/HT201222?q=1#top", "apple.com"),
        ("https://Www.Apple.Com:443/mac/", "apple.com"),
        ("https://apple.com:8443/", "apple.com"),
        ("https://user:pw@apple.com/", "apple.com"),
        ("https:apple.com", "apple.com"),
        ("wss://push.apple.com/", "apple.com"),
        ("blob:https://www.apple.com/5a1e-77", "apple.com"),
        ("porthole:start", nil),
        ("porthole:blocked?url=https%3A%2F%2Fevil.example", nil),
        ("about:blank", nil),
        ("about:srcdoc", nil),
        ("about:blank#top", nil),
    ]

    static var allURLs: [String] {
        mustBlock.map(\.url) + mustAllow.map(\.url) + ipForms + ["https://10.0.0.1:8080/", "https://10.0.0.1:8443/"]
    }

    func testBypassesAreBlocked() {
        for (url, filter) in PolicyBypassTests.mustBlock {
            let decision = PolicyBypassTests.applePolicy.decide(url: url)
            XCTAssertEqual(decision.verdict, .blocked, "\(url.debugDescription): \(decision.reason)")
            XCTAssertEqual(decision.filter, filter, "deciding filter for \(url.debugDescription)")
        }
    }

    func testApprovedSiteIsAllowed() {
        for (url, filter) in PolicyBypassTests.mustAllow {
            let decision = PolicyBypassTests.applePolicy.decide(url: url)
            XCTAssertEqual(decision.verdict, .allowed, "\(url.debugDescription): \(decision.reason)")
            XCTAssertEqual(decision.filter, filter, "deciding filter for \(url.debugDescription)")
        }
    }

    /// Every numeric spelling of a blocked IP address is that address.
    static let ipForms = ["http://10.0.0.1/", "http://0x0a.0.0.1/", "http://012.0.0.1/", "http://10.1/",
                          "http://167772161/", "http://0xa000001/", "http://10.0.1/", "http://10.0.0.1./",
                          "http://[::ffff:10.0.0.1]/"]

    func testNumericFormsOfABlockedAddressAreBlocked() {
        let policy = SitePolicy(allow: ["*"], block: ["10.0.0.1"])
        for url in PolicyBypassTests.ipForms.dropLast() {
            XCTAssertEqual(policy.decide(url: url).filter, "10.0.0.1", url)
            XCTAssertFalse(policy.isAllowed(url), url)
        }
        // An IPv4-mapped IPv6 address is another host (as in Chrome); `*` allows it here.
        XCTAssertEqual(policy.decide(url: "http://[::ffff:10.0.0.1]/").filter, "*")
        // IP filters never match as a suffix.
        XCTAssertEqual(policy.decide(url: "http://110.0.0.1/").filter, "*")
    }

    func testAFilterWithAPortAllowsNoOtherPort() {
        let policy = SitePolicy(allow: ["10.0.0.1:8080"], block: ["*"])
        XCTAssertTrue(policy.isAllowed("https://10.0.0.1:8080/"))
        XCTAssertEqual(policy.decide(url: "https://10.0.0.1:8443/").filter, "*")
        XCTAssertEqual(policy.decide(url: "https://10.0.0.1/").filter, "*")
        XCTAssertEqual(policy.decide(url: "http://10.0.0.1/").filter, "*")
    }

    // MARK: Special schemes

    func testOwnPagesAndEmptyDocumentsCannotBeBlocked() {
        let policy = SitePolicy(allow: [], block: ["*", "porthole:*", "about:*"])
        XCTAssertEqual(policy.decide(url: "porthole:start"),
                       PolicyDecision(verdict: .allowed, filter: nil, reason: "allowed: Porthole's own page"))
        XCTAssertEqual(policy.decide(url: "about:blank"),
                       PolicyDecision(verdict: .allowed, filter: nil, reason: "allowed: empty document"))
        XCTAssertEqual(policy.decide(url: "about:srcdoc").verdict, .allowed)
        XCTAssertEqual(policy.decide(url: "about:settings").filter, "about:*")
        XCTAssertEqual(policy.decide(url: "about:BLANK").filter, "about:*")
    }

    func testRefusedSchemesOpenOnlyToAFilterNamingThem() {
        let closed = SitePolicy(allow: ["*"], block: [])
        for url in ["javascript:void(0)", "view-source:https://apple.com/", "file:///srv/kiosk/index.html", "myapp:open"] {
            XCTAssertEqual(closed.decide(url: url).verdict, .blocked, "a scheme-less `*` does not open \(url)")
        }
        XCTAssertEqual(closed.decide(url: "javascript:void(0)").reason,
                       "blocked: javascript: URLs are refused unless a filter names the scheme, such as \"javascript:*\"")
        XCTAssertEqual(closed.decide(url: "file:///etc/hosts").reason,
                       "blocked: file: URLs are refused unless a filter names the scheme, such as \"file:///srv/kiosk/\"")

        let open = SitePolicy(allow: ["javascript:*", "view-source:*", "file:///srv/kiosk/", "myapp:*"], block: ["*"])
        XCTAssertEqual(open.decide(url: "javascript:void(0)").filter, "javascript:*")
        XCTAssertEqual(open.decide(url: "view-source:https://apple.com/").filter, "view-source:*")
        XCTAssertEqual(open.decide(url: "file:///srv/kiosk/index.html").filter, "file:///srv/kiosk/")
        XCTAssertEqual(open.decide(url: "myapp:open").filter, "myapp:*")
        XCTAssertFalse(open.isAllowed("file:///srv/other/index.html"))

        let blocked = SitePolicy(allow: ["file://*"], block: ["file:///srv/kiosk/private/"])
        XCTAssertTrue(blocked.isAllowed("file:///srv/kiosk/index.html"))
        XCTAssertEqual(blocked.decide(url: "file:///srv/kiosk/private/key").filter, "file:///srv/kiosk/private/")
    }

    func testDataURLsLoadOnlyAsFramesOfAllowedPages() {
        let policy = PolicyBypassTests.applePolicy
        let data = "data:text/html,<p>hello</p>"
        XCTAssertEqual(policy.decide(PolicyRequest(url: data, kind: .subframe, sourceURL: "https://www.apple.com/")),
                       PolicyDecision(verdict: .allowed, filter: "apple.com", reason: "allowed: data: frame of an allowed page"))
        XCTAssertEqual(policy.decide(PolicyRequest(url: data, kind: .subframe, sourceURL: "https://evil.example/")),
                       PolicyDecision(verdict: .blocked, filter: "*", reason: "blocked: data: frame of a blocked page"))
        XCTAssertEqual(policy.decide(PolicyRequest(url: data, kind: .subframe)).verdict, .blocked)
        XCTAssertEqual(policy.decide(PolicyRequest(url: data, kind: .mainFrame, sourceURL: "https://www.apple.com/")),
                       PolicyDecision(verdict: .blocked, filter: nil, reason: "blocked: data: URLs load only as frames of an allowed page"))
        XCTAssertEqual(policy.decide(PolicyRequest(url: data, kind: .newWindow, sourceURL: "https://www.apple.com/")).verdict,
                       .blocked)
        XCTAssertEqual(policy.decide(PolicyRequest(url: data, kind: .subframe, sourceURL: data)).verdict, .blocked,
                       "a data: page is not an allowed source")
        XCTAssertEqual(policy.decide(PolicyRequest(url: data, kind: .subframe, sourceURL: "about:blank")).verdict,
                       .allowed, "about:blank frames only exist inside allowed pages")
        XCTAssertEqual(SitePolicy(allow: ["data:*"], block: ["*"]).decide(url: data).filter, "data:*")
        XCTAssertEqual(SitePolicy(allow: ["apple.com"], block: ["*", "data:*"])
            .decide(PolicyRequest(url: data, kind: .subframe, sourceURL: "https://apple.com/")).filter, "data:*")
    }

    func testBlobURLsFollowTheirOrigin() {
        let policy = SitePolicy(allow: ["apple.com/store"], block: ["*"])
        let blob = "blob:https://apple.com/5a1e"
        XCTAssertEqual(policy.decide(url: blob),
                       PolicyDecision(verdict: .blocked, filter: "*", reason: "blocked: blob: URL of a blocked origin"))
        XCTAssertEqual(policy.decide(PolicyRequest(url: blob, kind: .subframe, sourceURL: "https://apple.com/store/bag")),
                       PolicyDecision(verdict: .allowed, filter: "apple.com/store", reason: "allowed: blob: URL of an allowed page"))
        XCTAssertEqual(policy.decide(PolicyRequest(url: blob, sourceURL: "https://store.evil.example/store")).verdict, .blocked,
                       "a source on another origin does not vouch for the blob")
        XCTAssertEqual(PolicyBypassTests.applePolicy.decide(url: "blob:https://www.apple.com/1").reason,
                       "allowed: blob: URL of an allowed origin")
        XCTAssertEqual(PolicyBypassTests.applePolicy.decide(url: "blob:null/1").reason, "blocked: blob: URL without an origin")
    }

    func testUnparseableURLsAreBlockedWithTheReason() {
        let decision = SitePolicy(allow: ["*"], block: []).decide(url: "https://apple.com:99999/")
        XCTAssertEqual(decision.verdict, .blocked)
        XCTAssertNil(decision.filter)
        XCTAssertTrue(decision.reason.hasPrefix("blocked: not a valid URL ("), decision.reason)
    }

    // MARK: Hosts GLib and WebKit could read differently

    /// Hosts holding a character no DNS name or IP literal can hold. The WHATWG URL standard
    /// (section 3.2, "forbidden host code point") forbids only U+0000, tab, LF, CR, space, `#`,
    /// `/`, `:`, `<`, `>`, `?`, `@`, `[`, `\`, `]`, `^` and `|`, so WebKit keeps `;`, `,` and the
    /// other sub-delims in the host (`good.example;.evil.example` is one host to it, and to a
    /// proxy), while GUri's relaxed parser ends the host at them and would decide for `apple.com`.
    static let oddHosts = [
        "https://apple.com;.evil.example/",
        "https://apple.com;evil.example/",
        "https://apple.com,.evil.example/",
        "https://www.apple.com;.evil.example/x?y",
        "https://user:pw@apple.com;.evil.example/",
        "https://apple.com;@evil.example;.apple.com/",
        "https://apple.com:443;.evil.example/",
        "http://apple.com!.evil.example/",
        "http://apple.com$.evil.example/",
        "http://apple.com&.evil.example/",
        "http://apple.com'.evil.example/",
        "http://apple.com(.evil.example)/",
        "http://apple.com*.evil.example/",
        "http://apple.com+.evil.example/",
        "http://apple.com=.evil.example/",
        "http://apple.com~.evil.example/",
        "http://apple.com\".evil.example/",
        "http://apple.com`.evil.example/",
        "http://apple.com{.evil.example}/",
        "http://apple.com\u{FF1B}.evil.example/",
        "http://apple.com\u{FF0C}.evil.example/",
        "https://[::1;.evil.example]/",
        "https://[fe80::1%25eth0]/",
    ]

    func testHostsWithCharactersDNSCannotHoldAreBlocked() {
        let allowAll = SitePolicy(allow: ["*"], block: [])
        for url in PolicyBypassTests.oddHosts {
            for policy in [PolicyBypassTests.applePolicy, allowAll] {
                let decision = policy.decide(url: url)
                XCTAssertEqual(decision.verdict, .blocked, "\(url.debugDescription): \(decision.reason)")
                XCTAssertNil(decision.filter, "no filter decides for \(url.debugDescription)")
                XCTAssertTrue(decision.reason.hasPrefix("blocked: not a valid URL ("), decision.reason)
            }
        }
        XCTAssertEqual(allowAll.decide(url: "https://apple.com;.evil.example/").reason,
                       "blocked: not a valid URL (host \"apple.com;.evil.example\" contains the character \";\", which a host name cannot hold)")
        // Outside the host the same characters are ordinary.
        for url in ["https://apple.com/a;b,c", "https://apple.com/?q=a;b", "https://u;v@apple.com/", "https://apple.com/#x;y"] {
            XCTAssertEqual(PolicyBypassTests.applePolicy.decide(url: url).filter, "apple.com", url)
        }
    }

    // MARK: Site entries

    func testSiteEntriesBecomeHostFilters() throws {
        let sites = SiteList([
            Site(name: "Apple", address: "apple.com"),
            Site(name: "Mac", address: "https://www.apple.com/mac/"),
            Site(name: "Intranet", address: "http://intranet.local:8080/start"),
            Site(name: "Kiosk", address: "file:///srv/kiosk/index.html"),
            Site(name: "Docs", address: "docs.example/guide"),
        ])
        XCTAssertEqual(try sites.sites.map { try URLFilter.approving($0).text },
                       ["apple.com", "www.apple.com", "intranet.local:8080", "file:///srv/kiosk/", "docs.example"])
        let policy = SitePolicy(sites: sites)
        XCTAssertEqual(policy.problems, [])
        XCTAssertEqual(policy.decide(url: "https://images.apple.com/").reason, "allowed by filter \"apple.com\" (site \"Apple\")")
        XCTAssertEqual(policy.decide(url: "http://www.apple.com/ipad/").filter, "www.apple.com")
        XCTAssertTrue(policy.isAllowed("http://intranet.local:8080/other"))
        XCTAssertFalse(policy.isAllowed("http://intranet.local/"))
        XCTAssertTrue(policy.isAllowed("file:///srv/kiosk/help.html"))
        XCTAssertTrue(policy.isAllowed("https://docs.example/other"))
        XCTAssertFalse(policy.isAllowed("https://evil.example/"))
    }

    func testFiltersNarrowAnApprovedSite() {
        let policy = SitePolicy(sites: SiteList([Site(name: "Apple", address: "apple.com")]),
                                allow: ["apple.com/shop/help"], block: ["*", "apple.com/shop"])
        XCTAssertEqual(policy.decide(url: "https://www.apple.com/shop/bag").filter, "apple.com/shop")
        XCTAssertEqual(policy.decide(url: "https://www.apple.com/shop/help/returns").filter, "apple.com/shop/help")
        XCTAssertEqual(policy.decide(url: "https://www.apple.com/mac/").filter, "apple.com")
    }

    func testBadSiteEntriesAreReportedAndAllowNothing() {
        let policy = SitePolicy(sites: SiteList([
            Site(name: "Typo", address: "https://apple..com/"),
            Site(name: "Mail", address: "mailto:someone@apple.com"),
            Site(name: "Star", address: "*.apple.com"),
            Site(name: "Share", address: "file://server/share/"),
        ]))
        XCTAssertEqual(policy.problems.map(\.description), [
            "invalid filter \"https://apple..com/\": site \"Typo\": host \"apple..com\" has an empty label",
            "invalid filter \"mailto:someone@apple.com\": site \"Mail\": only web and file: sites can be approved",
            "invalid filter \"*.apple.com\": site \"Star\": \"*\" can only stand alone for any host; \"example.com\" already matches its subdomains",
            "invalid filter \"file://server/share/\": site \"Share\": a file: site must be a local path, such as file:///srv/kiosk/",
        ])
        XCTAssertFalse(policy.isAllowed("https://www.apple.com/"))
        XCTAssertFalse(policy.isAllowed("https://apple.com/"))
    }
}
