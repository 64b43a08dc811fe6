// Porthole's own pages and the chrome state: pure logic, no display.
import Foundation
import PortholeCore
import XCTest

final class PortholePageTests: XCTestCase {
    func testEscapingMakesHostileTextInert() {
        let rows: [(String, String)] = [
            ("plain", "plain"),
            ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
            ("a & b", "a &amp; b"),
            ("\"quoted\" 'single'", "&quot;quoted&quot; &#39;single&#39;"),
            ("https://x.example/?q=<b>&r=1", "https://x.example/?q=&lt;b&gt;&amp;r=1"),
            ("naïve ✓", "naïve ✓"),
        ]
        for (input, expected) in rows {
            XCTAssertEqual(HTML.escape(input), expected, input)
        }
    }

    func testOnlyPageSchemesBecomeLinks() {
        XCTAssertEqual(HTML.safeHref("https://apple.com/"), "https://apple.com/")
        XCTAssertEqual(HTML.safeHref("HTTP://apple.com/?a=1&b=2"), "HTTP://apple.com/?a=1&amp;b=2")
        XCTAssertEqual(HTML.safeHref("porthole://start/"), "porthole://start/")
        XCTAssertNil(HTML.safeHref("javascript:alert(1)"))
        XCTAssertNil(HTML.safeHref("JaVaScRiPt:alert(1)"))
        XCTAssertNil(HTML.safeHref("data:text/html,<b>x</b>"))
        XCTAssertNil(HTML.safeHref("https://a.example/\u{0}x"))
    }

    func testErrorPageShowsTheEscapedURLAndErrorWithRetryAndHome() {
        let html = PortholePage.error(url: "http://x.example/<img src=x onerror=alert(1)>", message: "Could not connect: <refused>",
                                      homeURL: "porthole://start/")
        XCTAssertTrue(html.contains("http://x.example/&lt;img src=x onerror=alert(1)&gt;"))
        XCTAssertTrue(html.contains("Could not connect: &lt;refused&gt;"))
        XCTAssertFalse(html.contains("<img"))
        XCTAssertTrue(html.contains(">Retry</a>"))
        XCTAssertTrue(html.contains("href=\"porthole://start/\">Home</a>"))
        XCTAssertTrue(html.contains("<title>Error</title>"))
    }

    func testErrorPageLeadsWithPlainWordsFoldsTheReasonAwayAndOffersBack() {
        let html = PortholePage.error(url: "http://x.example/", message: "Connection refused", homeURL: "porthole://start/")
        let lead = try? XCTUnwrap(html.range(of: "could not be reached"))
        let reason = try? XCTUnwrap(html.range(of: "Connection refused"))
        XCTAssertNotNil(lead)
        XCTAssertLessThan(lead!.lowerBound, reason!.lowerBound, "plain words come first")
        XCTAssertTrue(html.contains("<details class=\"admin\"><summary>Technical details</summary>"), "the reason is folded away")
        XCTAssertTrue(html.contains("href=\"\(PortholePage.backURL)\">Back</a>"))
        XCTAssertFalse(PortholePage.error(url: "http://x.example/", message: "x", homeURL: nil, canGoBack: false).contains(PortholePage.backURL),
                       "no Back with nothing before it")
    }

    func testADownloadPageSaysFilesAreNotSavedAndDoesNotBlameTheSite() {
        let html = PortholePage.download(url: "https://good.example/f.zip", homeURL: "porthole://start/")
        XCTAssertTrue(html.contains("<h1>This browser doesn&#39;t save files</h1>"))
        XCTAssertFalse(html.contains("on the list"))
        XCTAssertTrue(html.contains("https://good.example/f.zip"))
        XCTAssertTrue(html.contains("href=\"\(PortholePage.backURL)\">Back</a>"))
    }

    func testBlockedAndStartPagesNameWhomToAskOnlyWhenAsked() {
        let ask = "ask the person who set up this computer to add it"
        XCTAssertTrue(PortholePage.blocked(url: "https://e.example/", reason: "x", homeURL: nil, namesWhomToAsk: true).contains(ask))
        XCTAssertFalse(PortholePage.blocked(url: "https://e.example/", reason: "x", homeURL: nil).contains(ask))
        let sites = SiteList([Site(name: "A", address: "a.example")])
        XCTAssertTrue(PortholePage.start(sites: sites, namesWhomToAsk: true).contains(ask))
        XCTAssertFalse(PortholePage.start(sites: sites).contains(ask))
    }

    func testErrorPageForAScriptURLHasNoRetryLink() {
        let html = PortholePage.error(url: "javascript:alert(1)", message: "bad", homeURL: nil)
        XCTAssertFalse(html.contains("Retry"))
        XCTAssertFalse(html.contains("href=\"javascript"))
    }

    func testBlockedPageSaysInPlainWordsWhyWithTheFilterForTheAdministrator() {
        let html = PortholePage.blocked(url: "https://evil.example/", reason: "blocked by filter \"*\": not on the approved list.",
                                        homeURL: "https://apple.com/")
        XCTAssertTrue(html.contains("https://evil.example/"))
        XCTAssertTrue(html.contains("<h1>This site isn&#39;t on the list of sites this browser opens</h1>"))
        XCTAssertTrue(html.contains("<p class=\"admin\">For the administrator: <span class=\"reason\">Blocked by filter &quot;*&quot;: not on the approved list.</span>"))
        XCTAssertTrue(html.contains("href=\"\(PortholePage.backURL)\">Back</a>"))
        XCTAssertTrue(html.contains("href=\"https://apple.com/\">Home</a>"))
        XCTAssertTrue(html.contains("<title>Blocked</title>"))
    }

    func testBlockedPageWithNothingToGoBackToOffersOnlyHome() {
        let html = PortholePage.blocked(url: "https://evil.example/", reason: "blocked", homeURL: "https://apple.com/", canGoBack: false)
        XCTAssertFalse(html.contains(PortholePage.backURL))
        XCTAssertTrue(html.contains("<a class=\"button primary\" href=\"https://apple.com/\">Home</a>"))
    }

    func testBlockedPageOfABrokenConfigurationSaysTheBrowserIsNotSetUpCorrectly() {
        let html = PortholePage.blocked(url: "https://apple.com/", reason: "blocked by filter \"*\": not on the approved list",
                                        homeURL: nil, configurationBroken: true)
        XCTAssertTrue(html.contains("<h1>This browser is not set up correctly</h1>"))
        XCTAssertFalse(html.contains("isn&#39;t on the list"), "a listed site is not blamed")
    }

    func testProblemListWrapsAtSpacesAndBreaksOnlyLongTokens() {
        let html = PortholePage.configurationProblems(["/etc/porthole.conf:4: Policy/allow: \"127.0.0.1:0\" is not a valid filter"])
        XCTAssertTrue(html.contains("<li class=\"problem\">"))
        XCTAssertFalse(html.contains("break-all"), "no rule that breaks words anywhere")
        XCTAssertTrue(html.contains("overflow-wrap: anywhere"))
        XCTAssertTrue(html.contains("<code>porthole --check-config</code>"))
    }

    func testADocumentWithoutATitleIsNamedByItsFileNotTheHostTwice() {
        let rows: [(String, String)] = [
            ("https://docs.example/leaflets/Opening%20hours.pdf", "Opening hours.pdf"),
            ("https://docs.example/menu.pdf?v=2", "menu.pdf"),
            ("https://docs.example/", "docs.example"),
            ("https://docs.example/about", "docs.example"),
            ("https://docs.example/.hidden", "docs.example"),
        ]
        for (uri, title) in rows {
            var state = PageState()
            state.uri = uri
            XCTAssertEqual(state.headerTitle, title, uri)
        }
    }

    func testStartPageListsTheSitesAsEscapedLinksAndSkipsItself() {
        let sites = SiteList([Site(name: "Start page", address: PortholePage.startURL),
                              Site(name: "Apple & <Co>", address: "apple.com"),
                              Site(name: "Docs", address: "https://developer.apple.com/documentation/")])
        let html = PortholePage.start(sites: sites)
        XCTAssertTrue(html.contains("<a class=\"site\" href=\"https://apple.com/\">Apple &amp; &lt;Co&gt;</a>"))
        XCTAssertTrue(html.contains("href=\"https://developer.apple.com/documentation/\">Docs</a>"))
        XCTAssertFalse(html.contains("href=\"porthole://start/\""), "the start page does not link to itself")
        XCTAssertTrue(PortholePage.start(sites: SiteList([])).contains("No sites are approved yet"))
    }

    func testPortholeURLsRouteToPages() {
        let sites = SiteList([Site(name: "A", address: "a.example")])
        XCTAssertNotNil(PortholePage.page(for: "porthole://start/", sites: sites))
        XCTAssertNotNil(PortholePage.page(for: "porthole://start", sites: sites))
        XCTAssertNotNil(PortholePage.page(for: "PORTHOLE://START/?x#y", sites: sites))
        XCTAssertNil(PortholePage.page(for: "porthole://nothing-here/", sites: sites))
    }
}

final class SiteListTests: XCTestCase {
    func testBareHostsOpenOverHTTPSAndURLsAsWritten() {
        XCTAssertEqual(Site(name: "A", address: "apple.com").url, "https://apple.com/")
        XCTAssertEqual(Site(name: "A", address: "http://apple.com/mac").url, "http://apple.com/mac")
        XCTAssertTrue(Site(name: "A", address: "apple.com").isBareHost)
        XCTAssertFalse(Site(name: "A", address: "https://apple.com/").isBareHost)
    }

    func testSitesAreFoundByNameThenAddress() {
        let list = SiteList([Site(name: "Apple", address: "apple.com"), Site(name: "Swift", address: "https://swift.org/")])
        XCTAssertEqual(list.home?.name, "Apple")
        XCTAssertEqual(list.site(named: "Swift")?.address, "https://swift.org/")
        XCTAssertEqual(list.site(named: "apple.com")?.name, "Apple")
        XCTAssertEqual(list.site(named: "https://apple.com/")?.name, "Apple")
        XCTAssertNil(list.site(named: "Nope"))
    }

    func testTheBundledSiteListOpensOnTheStartPage() throws {
        let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Resources/porthole.conf").path
        let result = ConfigLoader.load(sources: ConfigSources(commandLine: resources), validateFilter: URLFilter.validator)
        XCTAssertEqual(result.problems, [])
        let list = try XCTUnwrap(result.configuration?.sites)
        XCTAssertEqual(list.sites.map(\.name), ["Start page", "Apple", "Hacking with Swift"])
        XCTAssertEqual(list.home?.url, PortholePage.startURL)
        XCTAssertEqual(list.sites.map(\.address), [PortholePage.startURL, "apple.com", "hackingwithswift.com"])
    }
}

final class PageStateTests: XCTestCase {
    func testHeaderTitleFollowsLoadingErrorAndTitle() {
        var state = PageState()
        XCTAssertEqual(state.headerTitle, "Porthole")
        state.uri = "https://www.apple.com/mac/"
        XCTAssertEqual(state.headerTitle, "www.apple.com", "no title yet: the host")
        XCTAssertEqual(state.headerSubtitle, "www.apple.com")
        state.isLoading = true
        XCTAssertEqual(state.headerTitle, "Loading…")
        state.title = "Mac"
        XCTAssertEqual(state.headerTitle, "Loading…", "loading wins over the title")
        state.isLoading = false
        XCTAssertEqual(state.headerTitle, "Mac")
        state.failed = true
        XCTAssertEqual(state.headerTitle, "Error", "after a failed load until the next success")
    }

    func testProgressIsShownOnlyWhileLoadingAndClamped() {
        var state = PageState()
        state.progress = 0.4
        XCTAssertNil(state.visibleProgress)
        state.isLoading = true
        XCTAssertEqual(state.visibleProgress, 0.4)
        state.progress = 1.7
        XCTAssertEqual(state.visibleProgress, 1.0)
    }

    func testPortholePagesHaveNoSubtitle() {
        var state = PageState()
        state.uri = PortholePage.startURL
        XCTAssertNil(state.headerSubtitle)
        state.uri = "http://127.0.0.1:8080/x"
        XCTAssertEqual(state.headerSubtitle, "127.0.0.1")
    }
}

final class RestrictedPortsTests: XCTestCase {
    func testFetchBadPortsAreRecognisedForWebURLsOnly() {
        // Rows from the WHATWG Fetch standard's bad-port list (https://fetch.spec.whatwg.org/#port-blocking).
        let rows: [(String, Int?)] = [
            ("http://127.0.0.1:9/", 9),
            ("https://example.com:25/mail", 25),
            ("http://example.com:6667/", 6667),
            ("http://example.com:10080/", 10080),
            ("http://example.com/", nil),          // 80
            ("https://example.com/", nil),         // 443
            ("http://example.com:8080/", nil),
            ("ftp://example.com:21/", nil),        // not a web scheme here
            ("not a url", nil),
        ]
        for (url, port) in rows {
            XCTAssertEqual(RestrictedPorts.port(of: url), port, url)
        }
        XCTAssertTrue(RestrictedPorts.message(port: 9).contains("Port 9"))
    }
}
