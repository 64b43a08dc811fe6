// The refusal notice's burst rules: when it appears, what it counts, when it leaves.
import PortholeCore
import XCTest

final class RefusalNoticeTests: XCTestCase {
    private enum Step {
        case refused(String, from: String?, at: Double)
        case pageChanged
        case tick(Double)
    }

    private func run(_ steps: [Step], visibleFor: Double = 6, burstGap: Double = 3) -> [RefusalNoticeState.Action] {
        var state = RefusalNoticeState(visibleFor: visibleFor, burstGap: burstGap)
        return steps.map { step in
            switch step {
            case .refused(let uri, let page, let now): state.refused(uri, from: page, at: now)
            case .pageChanged: state.pageChanged()
            case .tick(let now): state.tick(at: now)
            }
        }
    }

    func testOneBlockedLinkShowsTheNoticeWithTheHostUntilItTimesOut() {
        let actions = run([.refused("https://evil.example/path?q=1", from: "https://good.example/", at: 10),
                           .tick(15.9), .tick(16)])
        XCTAssertEqual(actions, [.show(RefusalNotice(host: "evil.example")), .none, .hide])
    }

    func testFramesAndRedirectsOfOneBurstAreCountedInTheSameNotice() {
        let page = "https://good.example/"
        let actions = run([.refused("https://evil.example/", from: page, at: 0),
                           .refused("https://evil.example/frame", from: page, at: 0.5),
                           .refused("https://ads.example/", from: page, at: 1),
                           .refused("https://ads.example/again", from: page, at: 1.2)])
        XCTAssertEqual(actions, [
            .show(RefusalNotice(host: "evil.example")),
            .update(RefusalNotice(host: "evil.example", count: 2)),
            .update(RefusalNotice(host: "evil.example", count: 3, otherHosts: ["ads.example"])),
            .update(RefusalNotice(host: "evil.example", count: 4, otherHosts: ["ads.example"])),
        ])
    }

    func testAPageThatKeepsRefusingDoesNotShowTheNoticeAgainWithinItsBurst() {
        let page = "https://good.example/"
        let actions = run([.refused("https://evil.example/", from: page, at: 0), .tick(6),
                           .refused("https://evil.example/", from: page, at: 2.5 + 0.5),
                           .refused("https://evil.example/", from: page, at: 5.5),
                           .refused("https://evil.example/", from: page, at: 8)])
        XCTAssertEqual(actions, [.show(RefusalNotice(host: "evil.example")), .hide, .none, .none, .none])
    }

    func testAClickAfterAQuietSpellShowsTheNoticeAgain() {
        let page = "https://good.example/"
        let actions = run([.refused("https://evil.example/", from: page, at: 0), .tick(6),
                           .refused("https://other.example/", from: page, at: 20)])
        XCTAssertEqual(actions, [.show(RefusalNotice(host: "evil.example")), .hide, .show(RefusalNotice(host: "other.example"))])
    }

    func testARefusalFromAnotherPageStartsANewNotice() {
        let actions = run([.refused("https://evil.example/", from: "https://a.example/", at: 0),
                           .refused("https://evil.example/", from: "https://b.example/", at: 1)])
        XCTAssertEqual(actions, [.show(RefusalNotice(host: "evil.example")), .show(RefusalNotice(host: "evil.example"))])
    }

    func testTheNextNavigationTakesTheNoticeAway() {
        let actions = run([.refused("https://evil.example/", from: "https://a.example/", at: 0), .pageChanged, .tick(10), .pageChanged])
        XCTAssertEqual(actions, [.show(RefusalNotice(host: "evil.example")), .hide, .none, .none])
    }

    func testAnAddressWithoutAHostIsNamedItself() {
        let actions = run([.refused("mailto:someone@example.com", from: nil, at: 0)])
        XCTAssertEqual(actions, [.show(RefusalNotice(host: "mailto:someone@example.com"))])
    }

    func testTheNoticeSaysInPlainWordsWhichSiteIsNotOnTheList() {
        XCTAssertEqual(RefusalNotice(host: "evil.example").text, "evil.example is not on this browser's list of sites.")
        XCTAssertEqual(RefusalNotice(host: "evil.example", count: 3, otherHosts: ["ads.example"]).text,
                       "evil.example and 1 other site are not on this browser's list of sites.")
        XCTAssertEqual(RefusalNotice(host: "a.example", count: 3, otherHosts: ["b.example", "c.example"]).text,
                       "a.example and 2 other sites are not on this browser's list of sites.")
    }
}
