// The one-line notices a visitor reads over the page (issue 23, items 13 and 9): a kiosk's file
// chooser says files cannot be chosen; a crashed page that comes back says the typing was lost,
// with the crash's own icon, at a desk and in kiosk mode. In English and German.
import CWebKitGtk
import Foundation
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

final class VisitorNoticesTests: XCTestCase {
    @MainActor private static func fileChooser(says message: String) {
        let server = TestServer()
        defer { server.stop() }
        server.route = { _ in .html("<!DOCTYPE html><title>Form</title><input id=file type=file>") }
        let window = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [Site(name: "Form", address: server.url("/form"))]))
        defer { TestApp.destroy(window) }
        let log = EventLog(window)
        window.goHome()
        XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/form")))
        XCTAssertNil(window.noticeText)
        _ = UI.evaluate("document.getElementById('file').click(); 'clicked'", in: window)
        XCTAssertTrue(UI.wait(5) { log.refusals.contains("file-chooser") }, "the file chooser was refused: \(log.refusals)")
        XCTAssertTrue(UI.wait(5) { window.noticeText != nil }, "the visitor is told")
        XCTAssertEqual(window.noticeText, message)
        XCTAssertEqual(window.noticeIconName, "action-unavailable-symbolic")
        screenshot("file-chooser-kiosk-\(message.prefix(5))")
    }

    func testAKioskFileChooserSaysFilesCannotBeChosen() {
        MainActor.assumeIsolated { Self.fileChooser(says: "Files cannot be chosen on this computer.") }
    }

    func testAKioskFileChooserSaysSoInGerman() throws {
        try speaking(["de"]) {
            MainActor.assumeIsolated { Self.fileChooser(says: "Auf diesem Computer können keine Dateien ausgewählt werden.") }
        }
    }

    @MainActor private static func crash(kiosk: Bool, says message: String) {
        let server = TestServer()
        defer { server.stop() }
        server.route = { _ in .html("<!DOCTYPE html><title>Form</title><input>") }
        let sites = [Site(name: "Form", address: server.url("/form"))]
        let window = TestApp.window(configuration: kiosk ? TestApp.kioskConfiguration(sites: sites) : Configuration(sites: SiteList(sites)))
        defer { TestApp.destroy(window) }
        window.goHome()
        XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/form")))
        XCTAssertNil(window.noticeText)
        webkit_web_view_terminate_web_process(window.webView!)
        XCTAssertTrue(UI.wait { server.count(path: "/form") == 2 }, "the page reloads by itself")
        XCTAssertTrue(UI.wait { window.noticeText != nil }, "the visitor is told")
        XCTAssertEqual(window.noticeText, message)
        XCTAssertEqual(window.noticeIconName, "computer-fail-symbolic", "the crash's icon, not the refusal's")
        screenshot("crash-\(kiosk ? "kiosk" : "desk")-\(message.prefix(4))")
    }

    func testACrashedPageSaysSoWithItsOwnIconAtADesk() {
        MainActor.assumeIsolated {
            Self.crash(kiosk: false, says: "This page stopped working and was reloaded. Anything typed into it was lost.")
        }
    }

    func testTheFirstCrashInKioskModeTellsTheVisitor() {
        MainActor.assumeIsolated {
            Self.crash(kiosk: true, says: "This page stopped working and was reloaded. Anything typed into it was lost.")
        }
    }

    func testTheCrashNoticeInGermanAtADeskAndInKioskMode() throws {
        try speaking(["de"]) {
            MainActor.assumeIsolated {
                let message = "Diese Seite funktionierte nicht mehr und wurde neu geladen. Alle Eingaben darin sind verloren gegangen."
                Self.crash(kiosk: false, says: message)
                Self.crash(kiosk: true, says: message)
            }
        }
    }
}
