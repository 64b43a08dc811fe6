// One vocabulary from the web view up: what the status record and the window session make of
// each page notice, row by row.
import PortholeCore
import XCTest

private let uri = "https://good.example/"

final class PageNoticeTests: XCTestCase {
    func testTheStatusCountsTheNoticesItReports() {
        let rows: [(PageNotice, StatusEvent?)] = [
            (.loadStarted, .loadStarted),
            (.loadCommitted(uri: uri), .committed(uri: uri)),
            (.title("Good"), .title("Good")),
            (.loadFailed(uri: uri, message: "gone"), .errorPageShown(uri: uri)),
            (.navigationBlocked(uri: uri, reason: "no", shown: true), .refused(uri: uri, reason: "no", shown: true)),
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
            (.loadCommitted(uri: uri), .loadCommitted(uri: uri, at: 7)),
            (.loadFailed(uri: uri, message: "gone"), .loadFailed),
            (.navigationBlocked(uri: uri, reason: "no", shown: false), .navigationBlocked(uri: uri, reason: "no", shown: false, at: 7)),
            (.progress(0.5), .progress(0.5)),
            (.title(nil), .title(nil)),
            (.uri(uri), .uri(uri)),
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
}
