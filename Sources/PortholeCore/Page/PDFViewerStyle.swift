// WebKit's built-in PDF viewer (PDF.js): how its URLs look, and which of its buttons a visitor may meet.
import CGLib

/// WebKit shows a PDF in PDF.js, inside a frame at `webkit-pdfjs-viewer://pdfjs/web/viewer.html`.
/// Its Download and Open buttons do nothing in Porthole (it never saves or opens files), nor
/// does Print where printing is refused; a style sheet for that frame alone hides them, so a
/// visitor never meets a dead button.
public enum PDFViewerStyle {
    /// The viewer's frames, as a WebKit user content URL pattern (no page of a site matches).
    public static let viewerURLPattern = "webkit-pdfjs-viewer://pdfjs/*"
    /// The viewer's scheme and host, as WebKit registers them.
    public static let scheme = "webkit-pdfjs-viewer"
    public static let host = "pdfjs"

    /// The documents a viewer URL's query names for the viewer to fetch (`file=`, as PDF.js
    /// reads it: form-encoded, the last one counts, but every one is returned so none is missed).
    /// WebKit's own viewer frame has an empty `file=`: it hands the document over itself.
    public static func documents(named query: String) -> [String] {
        query.split(separator: "&").compactMap { pair -> String? in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, formDecoded(parts[0]).lowercased() == "file" else { return nil }
            let value = formDecoded(parts[1])
            return value.isEmpty ? nil : value
        }
    }

    /// `+` as a space, then percent-escapes decoded; text whose escapes cannot be decoded stays
    /// as written (it is then no URL the policy allows).
    private static func formDecoded(_ text: Substring) -> String {
        let spaced = String(text).split(separator: "+", omittingEmptySubsequences: false).joined(separator: " ")
        guard let decoded = g_uri_unescape_string(spaced, nil) else { return spaced }
        defer { g_free(decoded) }
        return String(cString: decoded)
    }

    /// The style sheet for the viewer; `printing` keeps the Print buttons.
    public static func styleSheet(printing: Bool) -> String {
        // Element ids of PDF.js's viewer.html as WebKitGTK 2.50 ships it.
        var hidden = ["#download", "#secondaryDownload", "#openFile", "#secondaryOpenFile",
                      "#viewBookmark", "#viewBookmarkSeparator", "#editorModeButtons", "#editorModeSeparator"]
        if !printing { hidden += ["#print", "#secondaryPrint"] }
        return hidden.joined(separator: ", ") + " { display: none !important; }"
    }
}
