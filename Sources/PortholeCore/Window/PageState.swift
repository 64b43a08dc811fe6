// What the window's chrome shows for the current page, derived from the web view's events.

/// The state of the page in the view, as far as the header bar and toolbar care.
public struct PageState: Sendable, Equatable {
    public var title: String?
    public var uri: String?
    public var isLoading = false
    public var progress = 0.0
    /// A load failed and its error page is showing; cleared when the next load starts.
    public var failed = false
    public var canGoBack = false
    public var canGoForward = false

    public init() {}

    /// The header bar title: "Loading…" while loading, "Error" after a failed load, else the
    /// page's title, else the file name of a document without one (a PDF: `leaflet.pdf`, not the
    /// host twice), else its host.
    public var headerTitle: String {
        // TRANSLATORS: the window's title while a page loads.
        if isLoading { return tr("Loading…") }
        if failed { return tr("Error") }
        if let title, !title.isEmpty { return title }
        return uri.flatMap(URLHelpers.fileName(of:)) ?? headerSubtitle ?? "Porthole"
    }

    /// The header bar subtitle: the host of the current page (none for Porthole's own pages).
    public var headerSubtitle: String? { uri.flatMap(URLHelpers.host(of:)) }

    /// The load's progress while loading, or nil when the bar should be empty.
    public var visibleProgress: Double? { isLoading ? max(0.0, min(1.0, progress)) : nil }

    /// Whether the progress bar is on screen at all: only while a page loads.
    public var showsProgress: Bool { visibleProgress != nil }
}
