// WindowSession as a table: events in, commands out; then what the window shows after them.
import PortholeCore
import XCTest

private let sites = SiteList([Site(name: "Good", address: "https://good.example/"), Site(name: "Plain", address: "http://plain.example/")])
private let good = "https://good.example/"
private let evil = "http://evil.example/nav/X"
private let crashLine = "This page stopped working and was reloaded. Anything typed into it was lost."
private let filesLine = "Files cannot be chosen on this computer."

private func windowSettings(httpsOnly: Bool = false, reloadsAfterCrash: Bool = true, printing: Bool = true, zoom: Double = 1.0,
                      home: String = "porthole://start/") -> WindowSettings {
    var settings = WindowSettings(sites: sites, homeURL: home)
    settings.httpsOnly = httpsOnly
    settings.reloadsAfterCrash = reloadsAfterCrash
    settings.printing = printing
    settings.zoom = zoom
    return settings
}

private func refusal(_ host: String = "evil.example", count: Int = 1, others: [String] = []) -> WindowNotice {
    let notice = RefusalNotice(host: host, count: count, otherHosts: others)
    return WindowNotice(text: notice.text, icon: WindowNotice.refusalIcon, refusal: notice)
}

private func blocked(_ uri: String = evil, shown: Bool = false, at time: Double = 10) -> WindowEvent {
    .navigationBlocked(uri: uri, reason: "not on the list", shown: shown, at: time)
}

/// What the page session says the view shows: nothing yet, or the page on `good`.
private let nowhere = ShownPage()
private let onGood = ShownPage(uri: good, url: good)

/// A page on `good` that has loaded: the state most rows start from.
private let loaded: [WindowEvent] = [.loadStarted, .loading(true), .loadCommitted(at: 1), .title("Good"), .loading(false)]

private struct Row {
    let name: String
    var settings = windowSettings()
    let events: [WindowEvent]
    /// What the view shows during `events` and, unless `thenShowing` says otherwise, `then`.
    var page = onGood
    let then: WindowEvent
    var thenShowing: ShownPage?
    let expect: [WindowCommand]
}

private let rows: [Row] = [
    // The page's state: the first event marks the current site (none yet), later ones only when it changes.
    Row(name: "the first event tells the menus there is no current site", events: [], page: nowhere, then: .loadStarted, expect: [.markSite("")]),
    Row(name: "a committed page on a listed site marks it", events: [.loadStarted], page: nowhere, then: .loadCommitted(at: 1),
        thenShowing: onGood, expect: [.markSite("Good")]),
    Row(name: "another page of the same site marks nothing again", events: loaded, then: .loadCommitted(at: 2),
        thenShowing: ShownPage(uri: good + "page", url: good + "page"), expect: []),
    Row(name: "a page off the list unmarks the site", events: loaded, then: .history(canGoBack: true, canGoForward: false),
        thenShowing: ShownPage(uri: "https://other.example/"), expect: [.markSite("")]),
    Row(name: "back from a page off the list, the site is marked again", events: loaded + [.progress(0.2)], page: ShownPage(uri: "https://other.example/"),
        then: .progress(0.4), thenShowing: onGood, expect: [.markSite("Good")]),
    Row(name: "one of Porthole's pages is on no site", events: loaded, then: blocked(shown: true),
        thenShowing: ShownPage(uri: "porthole://blocked/1", url: evil), expect: [.markSite("")]),
    Row(name: "progress, title and loading are shown, not commanded", events: loaded, then: .progress(0.5), expect: []),

    // Back, Forward, Home, Reload, Stop.
    Row(name: "Back goes back and gives the page the focus", events: loaded, then: .intent(.back), expect: [.goBack, .focusPage]),
    Row(name: "Forward goes forward and gives the page the focus", events: loaded, then: .intent(.forward), expect: [.goForward, .focusPage]),
    Row(name: "the Home button loads the home page", events: loaded, then: .intent(.home(fromButton: true)), expect: [.load("porthole://start/"), .focusPage]),
    Row(name: "the application's Home leaves the focus alone", events: [], page: nowhere, then: .intent(.home(fromButton: false)),
        expect: [.markSite(""), .load("porthole://start/")]),
    Row(name: "https-only loads the home page over https", settings: windowSettings(httpsOnly: true, home: "http://plain.example/"), events: loaded,
        then: .intent(.home(fromButton: false)), expect: [.load("https://plain.example/")]),
    Row(name: "a page's Back with nothing before it goes Home", events: loaded, then: .historyEmpty(.back), expect: [.load("porthole://start/")]),
    Row(name: "a Forward with nothing after it does nothing", events: loaded, then: .historyEmpty(.forward), expect: []),
    Row(name: "a typed URL loads", events: loaded, then: .intent(.openURL("http://plain.example/a")), expect: [.load("http://plain.example/a")]),
    Row(name: "https-only loads a typed http URL over https", settings: windowSettings(httpsOnly: true), events: loaded,
        then: .intent(.openURL("http://plain.example/a")), expect: [.load("https://plain.example/a")]),
    Row(name: "Reload reloads", events: loaded, then: .intent(.reload), expect: [.reload]),
    Row(name: "Stop stops", events: loaded, then: .intent(.stop), expect: [.stop]),

    // Sites.
    Row(name: "a site chosen from the menu loads and the page takes the focus", events: loaded, then: .intent(.openSite("Good", fromMenu: true)),
        expect: [.load(good), .focusPage]),
    Row(name: "the menu closing after a site was chosen focuses the page once it has closed",
        events: loaded + [.intent(.openSite("Good", fromMenu: true))], then: .menuClosed, expect: [.focusPageSoon]),
    Row(name: "the menu closing without a choice leaves the focus alone", events: loaded, then: .menuClosed, expect: []),
    Row(name: "the focus is handed to the page only once per choice",
        events: loaded + [.intent(.openSite("Good", fromMenu: true)), .menuClosed], then: .menuClosed, expect: []),
    Row(name: "a site opened by the application's action takes no focus", events: loaded, then: .intent(.openSite("Good", fromMenu: false)),
        expect: [.load(good)]),
    Row(name: "a site can be named by its address", events: loaded, then: .intent(.openSite("https://good.example/", fromMenu: false)),
        expect: [.load(good)]),
    Row(name: "https-only loads a plain site over https", settings: windowSettings(httpsOnly: true), events: loaded,
        then: .intent(.openSite("Plain", fromMenu: false)), expect: [.load("https://plain.example/")]),
    Row(name: "an unknown site is logged with the names that would work", events: loaded, then: .intent(.openSite("Nope", fromMenu: true)),
        expect: [.log(PageLog(.warning, "open-site: no site is named \"Nope\" (the sites: Good, Plain)",
                              ["PORTHOLE_EVENT": "open-site-unknown", "PORTHOLE_SITE": "Nope"]))]),

    // Zoom: steps from the view's level, Ctrl+0 back to the configured level.
    Row(name: "zoom in steps up from the view's level", events: loaded, then: .intent(.zoomIn(current: 1.0)), expect: [.setZoom(1.1)]),
    Row(name: "zoom out steps down from the view's level", events: loaded, then: .intent(.zoomOut(current: 1.1)), expect: [.setZoom(1.0)]),
    Row(name: "zoom reset goes back to the configured level", settings: windowSettings(zoom: 1.5), events: loaded,
        then: .intent(.zoomReset), expect: [.setZoom(1.5)]),
    Row(name: "a wheel notch away zooms in", events: loaded, then: .intent(.zoomScrolled(delta: -1, current: 1.0)), expect: [.setZoom(1.1)]),
    Row(name: "a wheel notch towards zooms out", events: loaded, then: .intent(.zoomScrolled(delta: 1, current: 1.0)), expect: [.setZoom(0.9)]),
    Row(name: "a touchpad's small scroll does not zoom yet", events: loaded, then: .intent(.zoomScrolled(delta: 0.4, current: 1.0)), expect: []),
    Row(name: "small scrolls add up to one step", events: loaded + [.intent(.zoomScrolled(delta: 0.6, current: 1.0))],
        then: .intent(.zoomScrolled(delta: 0.6, current: 1.0)), expect: [.setZoom(0.9)]),
    Row(name: "a step starts the sum again", events: loaded + [.intent(.zoomScrolled(delta: 1, current: 1.0))],
        then: .intent(.zoomScrolled(delta: 0.6, current: 0.9)), expect: []),

    // Find and print.
    Row(name: "find opens the find bar", events: loaded, then: .intent(.find), expect: [.openFind]),
    Row(name: "find next", events: loaded, then: .intent(.findNext), expect: [.findNext]),
    Row(name: "find previous", events: loaded, then: .intent(.findPrevious), expect: [.findPrevious]),
    Row(name: "print opens the print dialog", events: loaded, then: .intent(.print), expect: [.print]),
    Row(name: "print does nothing where the rules refuse printing", settings: windowSettings(printing: false), events: loaded,
        then: .intent(.print), expect: []),

    // The refusal notice (RefusalNoticeState's bursts, here as the window shows them).
    Row(name: "a refused navigation shows the notice until its time is up", events: loaded, then: blocked(),
        expect: [.showNotice(refusal()), .wake(at: 16)]),
    Row(name: "a second refusal in the burst counts into the notice", events: loaded + [blocked()],
        then: blocked("http://other.example/", at: 11), expect: [.showNotice(refusal(count: 2, others: ["other.example"]))]),
    Row(name: "the notice leaves when its time is up", events: loaded + [blocked()], then: .tick(16), expect: [.hideNotice, .wake(at: nil)]),
    Row(name: "an early tick leaves the notice", events: loaded + [blocked()], then: .tick(15), expect: []),
    Row(name: "the notice leaves when a load starts", events: loaded + [blocked()], then: .loadStarted, expect: [.hideNotice, .wake(at: nil)]),
    Row(name: "the notice leaves when the Blocked page replaces the page", events: loaded + [blocked()], then: blocked(shown: true, at: 11),
        expect: [.hideNotice, .wake(at: nil)]),
    Row(name: "a refusal the Blocked page explains shows no notice", events: loaded, then: blocked(shown: true), expect: []),
    Row(name: "the close button hides the notice", events: loaded + [blocked()], then: .noticeDismissed, expect: [.hideNotice, .wake(at: nil)]),
    Row(name: "after the close button a refusal starts a new notice", events: loaded + [blocked(), .noticeDismissed],
        then: blocked(at: 11), expect: [.showNotice(refusal()), .wake(at: 17)]),

    // The crash line and other messages.
    Row(name: "a crash says nothing yet", events: loaded, then: .webProcessTerminated, expect: []),
    Row(name: "the reloaded page says the page crashed", events: loaded + [.webProcessTerminated, .loadStarted],
        then: .loadCommitted(at: 20),
        expect: [.showNotice(WindowNotice(text: crashLine, icon: "computer-fail-symbolic")), .wake(at: 26)]),
    Row(name: "the crash line is said once", events: loaded + [.webProcessTerminated, .loadCommitted(at: 20), .tick(26)],
        then: .loadCommitted(at: 30), expect: []),
    Row(name: "without crash recovery the next page says nothing", settings: windowSettings(reloadsAfterCrash: false),
        events: loaded + [.webProcessTerminated], then: .loadCommitted(at: 20), expect: []),
    Row(name: "the crash line leaves when its time is up", events: loaded + [.webProcessTerminated, .loadCommitted(at: 20)],
        then: .tick(26), expect: [.hideNotice, .wake(at: nil)]),
    Row(name: "the crash line leaves with the next page", events: loaded + [.webProcessTerminated, .loadCommitted(at: 20)],
        then: .loadStarted, expect: [.hideNotice, .wake(at: nil)]),
    Row(name: "a refused file chooser says so", events: loaded, then: .refused("file-chooser", at: 5),
        expect: [.showNotice(WindowNotice(text: filesLine, icon: WindowNotice.refusalIcon)), .wake(at: 11)]),
    Row(name: "other refusals of the rules say nothing", events: loaded, then: .refused("context-menu", at: 5), expect: []),
    Row(name: "a refusal takes the message's place", events: loaded + [.refused("file-chooser", at: 5)], then: blocked(at: 6),
        expect: [.showNotice(refusal()), .wake(at: 12)]),

    // A kiosk's next visitor.
    Row(name: "a new visitor session hides the notice and shows the new view's page", events: loaded + [blocked()], then: .sessionRenewed,
        thenShowing: nowhere, expect: [.hideNotice, .wake(at: nil), .markSite("")]),
    Row(name: "a new visitor session forgets a pending crash line", events: loaded + [.webProcessTerminated, .sessionRenewed],
        then: .loadCommitted(at: 20), expect: []),
]

final class WindowSessionTests: XCTestCase {
    func testWindowSessionTable() {
        XCTAssertGreaterThanOrEqual(rows.count, 40)
        for row in rows {
            var session = WindowSession(settings: row.settings)
            for event in row.events { _ = session.handle(event, showing: row.page) }
            XCTAssertEqual(session.handle(row.then, showing: row.thenShowing ?? row.page), row.expect, row.name)
        }
    }

    func testTheHeaderFollowsThePage() {
        var session = WindowSession(settings: windowSettings())
        _ = session.handle(.loadStarted, showing: nowhere)
        _ = session.handle(.loading(true), showing: nowhere)
        _ = session.handle(.progress(0.4), showing: nowhere)
        XCTAssertEqual(session.page(nowhere).headerTitle, "Loading…")
        XCTAssertEqual(session.page(nowhere).visibleProgress, 0.4)
        XCTAssertTrue(session.canStop)
        loaded.forEach { _ = session.handle($0, showing: onGood) }
        XCTAssertEqual(session.page(onGood).headerTitle, "Good")
        XCTAssertEqual(session.page(onGood).headerSubtitle, "good.example")
        XCTAssertFalse(session.canStop)
        let failed = ShownPage(uri: good, url: good, isErrorPage: true)
        XCTAssertEqual(session.page(failed).headerTitle, "Error", "the page session's error page is the window's")
        XCTAssertEqual(session.page(failed).headerSubtitle, "good.example")
    }

    func testBackAndForwardFollowTheHistory() {
        var session = WindowSession(settings: windowSettings())
        XCTAssertFalse(session.canGoBack)
        _ = session.handle(.history(canGoBack: true, canGoForward: false), showing: onGood)
        XCTAssertTrue(session.canGoBack)
        XCTAssertFalse(session.canGoForward)
        _ = session.handle(.sessionRenewed, showing: nowhere)
        XCTAssertFalse(session.canGoBack, "a new visitor has no history")
    }

    func testRefusalsAreKeptNewestLastUpToTheirLimit() {
        var session = WindowSession(settings: windowSettings())
        for n in 0..<(RefusalLog.kept + 5) { _ = session.handle(blocked("http://evil.example/\(n)", at: Double(n)), showing: onGood) }
        XCTAssertEqual(session.refusals.recent.count, RefusalLog.kept)
        XCTAssertEqual(session.refusals.count, RefusalLog.kept + 5, "every refusal is counted")
        XCTAssertEqual(session.refusals.recent.last?.uri, "http://evil.example/\(RefusalLog.kept + 4)")
        XCTAssertEqual(session.notice?.refusal?.count, RefusalLog.kept + 5, "one burst: one notice counting them all")
        _ = session.handle(.sessionRenewed, showing: nowhere)
        XCTAssertEqual(session.refusals.count, RefusalLog.kept + 5, "a new visitor session keeps the count")
    }

    func testZoomRemembersTheLevelItSetAndANewVisitorStartsAtTheConfiguredOne() {
        var session = WindowSession(settings: windowSettings(zoom: 1.25))
        XCTAssertEqual(session.zoom, 1.25)
        _ = session.handle(.intent(.zoomIn(current: 1.25)), showing: onGood)
        XCTAssertEqual(session.zoom, 1.5)
        _ = session.handle(.sessionRenewed, showing: nowhere)
        XCTAssertEqual(session.zoom, 1.25)
    }

    func testChangedSitesAreMarkedAgain() {
        var session = WindowSession(settings: windowSettings())
        loaded.forEach { _ = session.handle($0, showing: onGood) }
        session.settings.sites = SiteList([Site(name: "Renamed", address: good)])
        XCTAssertEqual(session.handle(.progress(1), showing: onGood), [.markSite("Renamed")])
    }
}
