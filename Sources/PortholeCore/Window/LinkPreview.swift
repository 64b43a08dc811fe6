// What the desk shows for the link under the pointer: its address and whether this browser opens it.

public enum LinkPreview {
    /// The line for a hovered link to `url` that the site policy `allowed` (or not) as a page;
    /// nil for no link or a link of Porthole's own pages.
    public static func text(url: String?, allowed: Bool) -> String? {
        guard let url, !url.isEmpty, !url.hasPrefix(PortholePage.scheme + ":") else { return nil }
        // TRANSLATORS: shown at the bottom of the window while the pointer is on a link; {url} is its address.
        return (allowed ? tr("{url} — on the list of sites") : tr("{url} — not on the list: this browser will not open it"))
            .replacing("{url}", with: url)
    }
}
