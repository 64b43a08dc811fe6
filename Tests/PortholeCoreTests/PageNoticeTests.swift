// One vocabulary from the web view up: what the page session's shown page, the status record and
// the window session make of each page notice, row by row.
@testable import PortholeCore
import XCTest

private let uri = "https://good.example/"

final class PageNoticeTests: XCTestCase {
    func testTheStatusCountsTheNoticesItReports() {
        let rows: [(PageNotice, StatusEvent?)] = [
            // What the page shows and the refusals: the status follows their owners instead.
            (.loadStarted, nil),
            (.loadCommitted(uri: uri), nil),
            (.title("Good"), nil),
            (.loadFailed(uri: uri, message: "gone"), nil),
            (.navigationBlocked(uri: uri, reason: "no", shown: true), nil),
            (.webProcessTerminated, .crashRecovered),
            (.webProcessHung, .hangEnded),
            (.visitorSessionStarted, .visitorSessionStarted),
            (.loadFinished, nil),
            (.progress(0.5), nil),
            (.uri(uri), nil),
            (.loading(true), nil),
            (.history(canGoBack: true, canGoForward: false), nil),
            (.historyEmpty(.back), nil),
            (.permissionAnswered("geolocation", granted: false), nil),
            (.refused("print"), nil),
        ]
        for (notice, expected) in rows { XCTAssertEqual(StatusEvent(notice), expected, "\(notice)") }
    }

    func testTheWindowHearsWhatItShowsWithTheTime() {
        let rows: [(PageNotice, WindowEvent?)] = [
            (.loadStarted, .loadStarted),
            (.loadCommitted(uri: uri), .loadCommitted(at: 7)),
            (.loadFailed(uri: uri, message: "gone"), nil),
            (.navigationBlocked(uri: uri, reason: "no", shown: false), .navigationBlocked(uri: uri, reason: "no", shown: false, at: 7)),
            (.progress(0.5), .progress(0.5)),
            (.title(nil), .title(nil)),
            (.uri(uri), nil),
            (.loading(false), .loading(false)),
            (.history(canGoBack: false, canGoForward: true), .history(canGoBack: false, canGoForward: true)),
            (.historyEmpty(.back), .historyEmpty(.back)),
            (.webProcessTerminated, .webProcessTerminated),
            (.refused("file-chooser"), .refused("file-chooser", at: 7)),
            (.loadFinished, nil),
            (.webProcessHung, nil),
            (.permissionAnswered("camera", granted: true), nil),
            (.visitorSessionStarted, nil),
        ]
        for (notice, expected) in rows { XCTAssertEqual(WindowEvent(notice, at: 7), expected, "\(notice)") }
    }

    /// The rules the status record and the window had each kept a copy of, now in one place.
    func testTheShownPageFollowsTheNoticesThatChangeIt() {
        let blocked = "https://games.example/x"
        let down = "https://good.example/down"
        let onGood = ShownPage(uri: uri, url: uri)
        let rows: [(name: String, from: ShownPage, notice: PageNotice, expect: ShownPage)] = [
            ("a commit is the view's URI and what the page is about", ShownPage(), .loadCommitted(uri: uri), onGood),
            ("WebKit's URI moves on before the commit; the page is still about the old one", onGood,
             .uri("https://good.example/next"), ShownPage(uri: "https://good.example/next", url: uri)),
            ("a failed load's error page is about the failing URL", onGood, .loadFailed(uri: down, message: "gone"),
             ShownPage(uri: uri, url: down, isErrorPage: true)),
            ("the error page's own URI is WebKit's", ShownPage(uri: down, url: down, isErrorPage: true), .uri("porthole://error/1"),
             ShownPage(uri: "porthole://error/1", url: down, isErrorPage: true)),
            ("the visitor's next load ends the error page", ShownPage(uri: down, url: down, isErrorPage: true), .loadStarted,
             ShownPage(uri: down, url: down)),
            ("the Blocked page stands in for the refused URL and ends an error page",
             ShownPage(uri: down, url: down, isErrorPage: true), .navigationBlocked(uri: blocked, reason: "no", shown: true),
             ShownPage(uri: down, url: blocked)),
            ("a refusal the page stays on changes nothing", onGood, .navigationBlocked(uri: blocked, reason: "no", shown: false), onGood),
            ("the title, progress and loading are not the shown page's", onGood, .title("Good"), onGood),
            ("nor is the load's end", onGood, .loadFinished, onGood),
        ]
        for row in rows {
            var page = row.from
            page.follow(row.notice)
            XCTAssertEqual(page, row.expect, row.name)
        }
    }
}
