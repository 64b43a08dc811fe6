// Escaping for text that goes into the pages Porthole generates: URLs and error texts are hostile.

public enum HTML {
    /// Escapes `&`, `<`, `>`, `"` and `'` so the text is inert in element content and in quoted
    /// attribute values.
    public static func escape(_ text: String) -> String { ScalarEscaping.escape(text, replacements) }

    private static let replacements: [Unicode.Scalar: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"]

    /// An `href` value for `url`, or nil when following it could run script or reach something
    /// other than a page (only http, https, file and Porthole's own pages qualify).
    public static func safeHref(_ url: String) -> String? {
        let lower = url.lowercased()
        let allowed = ["http://", "https://", "file://", "\(PortholePage.scheme)://"]
        guard allowed.contains(where: { lower.hasPrefix($0) }),
              !url.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        return escape(url)
    }
}
