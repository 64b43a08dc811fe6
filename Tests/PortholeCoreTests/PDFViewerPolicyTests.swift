// WebKit's PDF viewer: allowed as a frame of an allowed page and nowhere else, in both layers.
@testable import PortholeCore
import XCTest

final class PDFViewerPolicyTests: XCTestCase {
    private let policy = SitePolicy(sites: SiteList([Site(name: "Leaflets", address: "docs.example")]))
    private let viewer = "webkit-pdfjs-viewer://pdfjs/web/viewer.html?file="
    private let pdf = "https://docs.example/leaflet.pdf"

    /// WebKitGTK 2.50.6 opens a PDF as a document of the PDF's URL with one frame at
    /// `webkit-pdfjs-viewer://pdfjs/web/viewer.html?file=` (the document handed over, not
    /// fetched), which loads the viewer's scripts and styles from the same scheme (seen in the
    /// web process's send-request).
    func testTheViewerLoadsOnlyAsAFrameOfAnAllowedPage() {
        let rows: [(url: String, kind: NavigationKind, source: String?, allowed: Bool, why: String)] = [
            (viewer, .subframe, pdf, true, "the viewer of an allowed PDF"),
            ("webkit-pdfjs-viewer://pdfjs/web/viewer.mjs", .subframe, pdf, true, "its script"),
            ("webkit-pdfjs-viewer://pdfjs/extras/adwaita/style.css", .subframe, pdf, true, "its style sheet"),
            ("WEBKIT-PDFJS-VIEWER://PDFJS/web/viewer.html?file=", .subframe, pdf, true, "scheme and host without case"),
            (viewer, .mainFrame, pdf, false, "never the whole page"),
            (viewer, .newWindow, pdf, false, "never a new window"),
            (viewer, .subframe, nil, false, "a frame of no known page"),
            (viewer, .subframe, "https://evil.example/leaflet.pdf", false, "the viewer of a blocked page"),
            (viewer, .subframe, viewer, false, "the viewer inside the viewer"),
            ("webkit-pdfjs-viewer://evil/web/viewer.html", .subframe, pdf, false, "another host of the scheme"),
            (viewer + "https%3A%2F%2Fevil.example%2Fx.pdf", .subframe, pdf, false, "naming a blocked document (escaped)"),
            (viewer + "https://evil.example/x.pdf", .subframe, pdf, false, "naming a blocked document"),
            ("webkit-pdfjs-viewer://pdfjs/web/viewer.html?a=1&fil%65=https://evil.example/x.pdf", .subframe, pdf, false, "an escaped key"),
            ("webkit-pdfjs-viewer://pdfjs/web/viewer.html?file=https://docs.example/a.pdf&file=https://evil.example/x.pdf", .subframe, pdf, false, "any file= counts"),
            (viewer + "/etc/passwd", .subframe, pdf, false, "a path is no URL the policy allows"),
            (viewer + "%zz", .subframe, pdf, false, "an escape that cannot be decoded"),
            (viewer + "https%3A%2F%2Fdocs.example%2Fother.pdf", .subframe, pdf, true, "naming an allowed document"),
        ]
        for row in rows {
            let decision = policy.decide(PolicyRequest(url: row.url, kind: row.kind, sourceURL: row.source))
            XCTAssertEqual(decision.isAllowed, row.allowed, "\(row.why): \(row.url) → \(decision.reason)")
        }
    }

    func testAFilterNamingTheSchemeStillDecides() {
        let refusing = SitePolicy(sites: SiteList([Site(name: "Leaflets", address: "docs.example")]), block: ["*", "webkit-pdfjs-viewer:*"])
        XCTAssertFalse(refusing.decide(PolicyRequest(url: viewer, kind: .subframe, sourceURL: pdf)).isAllowed,
                       "an administrator can refuse the viewer")
    }

    func testTheWebProcessDecidesTheViewerAsAFrameOfItsPage() {
        let rules = WebProcessPolicy(sites: [Site(name: "Leaflets", address: "docs.example")], subresources: .policy)
        let compiled = rules.compile()
        XCTAssertNil(rules.refusal(of: viewer, destination: .document, policy: compiled, pageURL: pdf), "the viewer's frame")
        XCTAssertNil(rules.refusal(of: "webkit-pdfjs-viewer://pdfjs/web/viewer.mjs", destination: .subresource, policy: compiled, pageURL: pdf),
                     "its script")
        XCTAssertNotNil(rules.refusal(of: viewer, destination: .document, policy: compiled, pageURL: pdf, mainFrame: true), "the whole page")
        XCTAssertNotNil(rules.refusal(of: viewer, destination: .document, policy: compiled, pageURL: "https://evil.example/"),
                        "inside a blocked page")
        XCTAssertNotNil(rules.refusal(of: viewer, destination: .document, policy: compiled, pageURL: nil), "inside no known page")
    }

    func testTheDocumentsAViewerURLNames() {
        XCTAssertEqual(PDFViewerStyle.documents(named: "file="), [])
        XCTAssertEqual(PDFViewerStyle.documents(named: "file=a%20b+c"), ["a b c"])
        XCTAssertEqual(PDFViewerStyle.documents(named: "x=1&FILE=u&file=v"), ["u", "v"])
    }
}
