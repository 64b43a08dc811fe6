// What a visitor reads on Porthole's own pages (issue 23): a download's own page, the error page's
// plain words with the reason folded away, and whom to ask for another site; in English and German,
// at a desk and in kiosk mode, judged by the page's visible text.
import CWebKitGtk
import Foundation
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

private func page(_ title: String, _ body: String = "") -> String {
    "<!DOCTYPE html><title>\(title)</title><p>\(body)</p>"
}

/// The page's first heading, as shown.
@MainActor func heading(_ window: BrowserWindow) -> String {
    UI.evaluate("document.querySelector('h1') ? document.querySelector('h1').innerText : ''", in: window) ?? ""
}

/// Saves the screen as `name`.png when `PORTHOLE_TEST_SHOTS` names a folder (for a person to
/// look at; the assertions read the page's rendered text).
@MainActor func screenshot(_ name: String) {
    _ = UI.countScreenPixels(name: name) { _, _, _ in false }
}

final class VisitorPagesTests: XCTestCase {
    private struct Words {
        let language: String
        let download: String
        let errorLead: String
        let details: String
        let back: String
        let ask: String
    }

    private static let english = Words(language: "en", download: "This browser doesn't save files",
                                       errorLead: "The site could not be reached, or it did not send the page.",
                                       details: "Technical details", back: "Back",
                                       ask: "ask the person who set up this computer to add it")
    private static let german = Words(language: "de", download: "Dieser Browser speichert keine Dateien",
                                      errorLead: "Die Website war nicht erreichbar oder hat die Seite nicht gesendet.",
                                      details: "Technische Details", back: "Zurück",
                                      ask: "die Person, die diesen Computer eingerichtet hat, sie hinzuzufügen")

    // MARK: Item 6: a download from an approved site

    @MainActor private static func download(kiosk: Bool, _ words: Words) {
        let server = TestServer()
        defer { server.stop() }
        server.route = { request in
            request.path == "/report.zip" ? .attachment("PK bytes", filename: "report.zip", mimeType: "application/zip")
                : .html(page("Files", "<a id=get href='/report.zip'>The report</a>"))
        }
        let sites = [Site(name: "Files", address: server.url("/"))]
        let configuration = kiosk ? TestApp.kioskConfiguration(sites: sites) : Configuration(sites: SiteList(sites))
        let window = TestApp.window(configuration: configuration)
        defer { TestApp.destroy(window) }
        window.goHome()
        XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/")))
        // A visitor follows a plain link to a file the site sends as a download.
        _ = UI.evaluate("document.getElementById('get').click(); 'clicked'", in: window)
        XCTAssertTrue(UI.wait { heading(window) == words.download }, "the download's page, heading \(heading(window))")
        XCTAssertEqual(server.count(path: "/report.zip"), 1, "the site was asked for the file")
        let text = UI.bodyText(window)
        XCTAssertTrue(text.contains(server.url("/report.zip")), text)
        if words.language == "en" { XCTAssertFalse(text.contains("on the list"), "the site is not blamed: \(text)") }
        XCTAssertTrue(text.contains(words.back), "Back to the page with the link: \(text)")
        screenshot("download-\(kiosk ? "kiosk" : "desk")-\(words.language)")
        // Back leads to the page the link was on.
        _ = UI.evaluate("document.querySelector('a[href=\"porthole://back/\"]').click(); 'clicked'", in: window)
        XCTAssertTrue(UI.wait { window.coordinator.uri == server.url("/") && !window.coordinator.isLoading })
    }

    func testADownloadFromAnApprovedSiteSaysFilesAreNotSavedAtADesk() {
        MainActor.assumeIsolated { Self.download(kiosk: false, Self.english) }
    }

    func testADownloadFromAnApprovedSiteSaysFilesAreNotSavedInKioskMode() {
        MainActor.assumeIsolated { Self.download(kiosk: true, Self.english) }
    }

    func testADownloadPageInGermanAtADeskAndInKioskMode() throws {
        try speaking(["de"]) {
            MainActor.assumeIsolated {
                Self.download(kiosk: false, Self.german)
                Self.download(kiosk: true, Self.german)
            }
        }
    }

    // MARK: Item 7: the error page

    @MainActor private static func errorPage(_ words: Words) {
        let server = TestServer()
        server.route = { _ in .html(page("Home", "home")) }
        let window = TestApp.window(configuration: Configuration(sites: SiteList([Site(name: "Home", address: server.url("/"))])))
        defer { TestApp.destroy(window) }
        window.goHome()
        XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/")))
        let gone = server.url("/gone")
        server.stop()  // the port now refuses connections
        window.load(url: gone)
        XCTAssertTrue(UI.wait { window.coordinator.uri?.hasPrefix("porthole://error/") == true && !window.coordinator.isLoading },
                      "the error page, at \(window.coordinator.uri ?? "nil")")
        XCTAssertTrue(UI.wait { UI.bodyText(window).contains(words.errorLead) }, UI.bodyText(window))
        let text = UI.bodyText(window)
        let lines = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
        XCTAssertTrue(lines.dropFirst().first?.hasPrefix(words.errorLead) ?? false, "plain words right under the heading: \(lines)")
        XCTAssertFalse(text.lowercased().contains("refused"), "the technical reason is folded away: \(text)")
        XCTAssertTrue(text.contains(words.details), text)
        XCTAssertTrue(lines.contains { $0.contains(words.back) }, "Back, as the Blocked page has: \(lines)")
        screenshot("error-desk-\(words.language)")
        // Unfolded, the reason is there for whoever wants it.
        _ = UI.evaluate("document.querySelector('details').open = true; 'open'", in: window)
        XCTAssertTrue(UI.wait { UI.bodyText(window).lowercased().contains("refused") }, UI.bodyText(window))
        screenshot("error-desk-\(words.language)-details")
        _ = UI.evaluate("document.querySelector('a[href=\"porthole://back/\"]').click(); 'clicked'", in: window)
        XCTAssertTrue(UI.wait { window.coordinator.uri == server.url("/") }, "Back leads to the page before")
    }

    func testTheErrorPageLeadsWithPlainWordsAndOffersBack() {
        MainActor.assumeIsolated { Self.errorPage(Self.english) }
    }

    func testTheErrorPageInGermanLeadsWithPlainWords() throws {
        try speaking(["de"]) { MainActor.assumeIsolated { Self.errorPage(Self.german) } }
    }

    func testTheKioskRetryPageFoldsTheTechnicalReasonAway() {
        MainActor.assumeIsolated {
            let server = TestServer()
            server.route = { _ in .html(page("Home", "home")) }
            let window = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [Site(name: "Home", address: server.url("/"))]))
            defer { TestApp.destroy(window) }
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/")))
            let gone = server.url("/gone")
            server.stop()
            window.load(url: gone)
            XCTAssertTrue(UI.wait { UI.bodyText(window).contains(Self.english.errorLead) }, UI.bodyText(window))
            XCTAssertFalse(UI.bodyText(window).lowercased().contains("refused"), UI.bodyText(window))
        }
    }

    // MARK: Item 17: whom to ask

    @MainActor private static func whomToAsk(kiosk: Bool, _ words: Words) {
        let server = TestServer()
        defer { server.stop() }
        server.route = { _ in .html(page("Home", "home")) }
        let sites = [Site(name: "Start", address: PortholePage.startURL), Site(name: "Home", address: server.url("/"))]
        let configuration = kiosk ? TestApp.kioskConfiguration(sites: sites) : Configuration(sites: SiteList(sites))
        let window = TestApp.window(configuration: configuration)
        defer { TestApp.destroy(window) }
        window.goHome()
        XCTAssertTrue(UI.waitForLoad(window, uri: PortholePage.startURL))
        XCTAssertTrue(UI.wait { UI.bodyText(window).contains("Home") })
        XCTAssertEqual(UI.bodyText(window).contains(words.ask), !kiosk, "the start page: \(UI.bodyText(window))")
        screenshot("start-\(kiosk ? "kiosk" : "desk")-\(words.language)")
        window.load(url: "https://not-listed.example/")
        XCTAssertTrue(UI.wait { window.coordinator.uri?.hasPrefix("porthole://blocked/") == true && !window.coordinator.isLoading })
        XCTAssertTrue(UI.wait { !heading(window).isEmpty })
        XCTAssertEqual(UI.bodyText(window).contains(words.ask), !kiosk, "the Blocked page: \(UI.bodyText(window))")
        screenshot("blocked-\(kiosk ? "kiosk" : "desk")-\(words.language)")
    }

    func testTheBlockedAndStartPagesSayWhomToAskAtADesk() {
        MainActor.assumeIsolated { Self.whomToAsk(kiosk: false, Self.english) }
    }

    func testAKioskVisitorIsNotSentToWhoeverSetItUp() {
        MainActor.assumeIsolated { Self.whomToAsk(kiosk: true, Self.english) }
    }

    func testTheBlockedAndStartPagesSayWhomToAskInGerman() throws {
        try speaking(["de"]) {
            MainActor.assumeIsolated {
                Self.whomToAsk(kiosk: false, Self.german)
                Self.whomToAsk(kiosk: true, Self.german)
            }
        }
    }
}
