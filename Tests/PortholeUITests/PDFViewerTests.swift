// A PDF shows its page: judged by the pixels the X server shows while the real binary runs, at
// the desk (with and without the web process deciding subresources) and in kiosk mode.
import CWebKitGtk
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

/// A one-page PDF whose page is almost all one red rectangle (PDF.js rebuilds the missing
/// cross-reference table): a blank viewer shows no red at all.
private let redPagePDF = """
    %PDF-1.4
    1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj
    2 0 obj <</Type/Pages/Kids[3 0 R]/Count 1>> endobj
    3 0 obj <</Type/Page/Parent 2 0 R/MediaBox[0 0 300 200]/Contents 4 0 R>> endobj
    4 0 obj <</Length 27>> stream
    1 0 0 rg 20 20 260 160 re f
    endstream endobj
    trailer <</Root 1 0 R>>
    %%EOF

    """

private func isRed(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Bool { red > 200 && green < 60 && blue < 60 }

/// The browser as it runs (the real binary on the test's display), on one PDF; true once the
/// PDF's red page covers at least `pixels` of the screen.
@MainActor
private func showsThePDFPage(extraConfig: String, pixels: Int, name: String) throws -> Bool {
    let fixture = try BrowserProcessFixture()
    defer { fixture.tearDown() }
    fixture.server.route = { _ in .body(redPagePDF, mimeType: "application/pdf") }
    let config = fixture.home.write("leaflet.conf", """
        [Sites]
        Leaflet=\(fixture.server.url("/leaflet.pdf"))
        \(extraConfig)
        """)
    try fixture.start(["--config", config])
    let drawn = UI.wait(30) { UI.countScreenPixels(name: name, where: isRed) > pixels }
    XCTAssertEqual(fixture.server.count(path: "/leaflet.pdf"), 1, "the PDF was fetched once")
    return drawn
}

final class PDFViewerTests: XCTestCase {
    func testAPDFShowsItsPageAtTheDesk() throws {
        try MainActor.assumeIsolated {
            XCTAssertTrue(try showsThePDFPage(extraConfig: "", pixels: 20_000, name: "pdf-desk"), "the PDF's red page is on screen")
        }
    }

    func testAPDFShowsItsPageAtTheDeskWhenTheWebProcessDecidesSubresources() throws {
        try MainActor.assumeIsolated {
            XCTAssertTrue(try showsThePDFPage(extraConfig: "[Policy]\nsubresources=policy", pixels: 20_000, name: "pdf-desk-policy"),
                          "the PDF's red page is on screen")
        }
    }

    func testAPDFShowsItsPageInKioskMode() throws {
        try MainActor.assumeIsolated {
            XCTAssertTrue(try showsThePDFPage(extraConfig: "[Policy]\nsubresources=policy\n[Kiosk]\nenabled=true", pixels: 100_000, name: "pdf-kiosk"),
                          "the PDF's red page fills the kiosk's screen")
        }
    }
}
