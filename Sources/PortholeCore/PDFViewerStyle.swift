// Which buttons of WebKit's built-in PDF viewer (PDF.js) a visitor may meet.

/// WebKit shows a PDF in PDF.js, inside a frame at `webkit-pdfjs-viewer://pdfjs/web/viewer.html`.
/// Its Download and Open buttons do nothing in Porthole (it never saves or opens files), nor
/// does Print where printing is refused; a style sheet for that frame alone hides them, so a
/// visitor never meets a dead button.
public enum PDFViewerStyle {
    /// The viewer's frames, as a WebKit user content URL pattern (no page of a site matches).
    public static let viewerURLPattern = "webkit-pdfjs-viewer://pdfjs/*"

    /// The style sheet for the viewer; `printing` keeps the Print buttons.
    public static func styleSheet(printing: Bool) -> String {
        // Element ids of PDF.js's viewer.html as WebKitGTK 2.50 ships it.
        var hidden = ["#download", "#secondaryDownload", "#openFile", "#secondaryOpenFile",
                      "#viewBookmark", "#viewBookmarkSeparator", "#editorModeButtons", "#editorModeSeparator"]
        if !printing { hidden += ["#print", "#secondaryPrint"] }
        return hidden.joined(separator: ", ") + " { display: none !important; }"
    }
}
