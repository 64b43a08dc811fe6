// What `porthole ARG` opens.
import PortholeCore
import XCTest

final class ArgumentsTests: XCTestCase {
    func testArgumentsBecomeURIs() {
        let files = ["page.html": "file:///home/user/page.html", "/srv/kiosk/doc.pdf": "file:///srv/kiosk/doc.pdf"]
        let rows: [(String, String?)] = [
            ("https://apple.com/", "https://apple.com/"),
            ("http://127.0.0.1:8080/x", "http://127.0.0.1:8080/x"),
            ("apple.com", "https://apple.com"),
            ("www.apple.com/mac?x=1", "https://www.apple.com/mac?x=1"),
            ("localhost:8080/a", "https://localhost:8080/a"),
            ("example.com:8443", "https://example.com:8443"),
            (" \tapple.com\u{00A0}\u{2003}", "https://apple.com"),  // spaces and tabs around, as CharacterSet.whitespaces
            ("apple.com\n", nil),  // a newline is not trimmed: it is a control character
            ("page.html", "file:///home/user/page.html"),
            ("/srv/kiosk/doc.pdf", "file:///srv/kiosk/doc.pdf"),
            ("file:///etc/passwd", "file:///etc/passwd"),  // the policy refuses it, not the parser
            ("javascript:alert(1)", "javascript:alert(1)"),
            ("about:blank", "about:blank"),
            ("mailto:x@example.com", "mailto:x@example.com"),
            ("nonsense", nil),
            ("two words.com", nil),
            ("", nil),
            ("bad\u{7}bell.com", nil),
            (".leading-dot.com", nil),
        ]
        for (argument, expected) in rows {
            let result = Arguments.target(for: argument) { files[$0] }
            switch (result, expected) {
            case (.success(let uri), let expected?): XCTAssertEqual(uri, expected, argument)
            case (.failure, nil): break
            case (.success(let uri), nil): XCTFail("\(argument) should be refused, got \(uri)")
            case (.failure(let problem), let expected?): XCTFail("\(argument) should open \(expected): \(problem)")
            }
        }
    }

    func testTheProblemNamesTheArgument() {
        guard case .failure(let problem) = Arguments.target(for: "nonsense", fileURI: { _ in nil }) else { return XCTFail() }
        XCTAssertEqual(problem.description, "nonsense: not a URL, and there is no such file")
    }
}
