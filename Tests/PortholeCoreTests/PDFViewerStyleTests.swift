// The PDF viewer's buttons: none that would do nothing.
import PortholeCore
import XCTest

final class PDFViewerStyleTests: XCTestCase {
    func testThePDFViewerNeverShowsDownloadAndShowsPrintOnlyWhenPrintingIsAllowed() {
        let refused = PDFViewerStyle.styleSheet(printing: false)
        let allowed = PDFViewerStyle.styleSheet(printing: true)
        for id in ["#download", "#secondaryDownload", "#secondaryOpenFile"] {
            XCTAssertTrue(refused.contains(id + ","), id)
            XCTAssertTrue(allowed.contains(id + ","), id)
        }
        XCTAssertTrue(refused.contains("#print,") && refused.contains("#secondaryPrint"))
        XCTAssertFalse(allowed.contains("#print"), "Print stays where printing is allowed")
        XCTAssertTrue(PDFViewerStyle.viewerURLPattern.hasPrefix("webkit-pdfjs-viewer://"), "only the viewer's frames")
    }
}
