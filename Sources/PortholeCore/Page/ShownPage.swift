// What the view shows now, as the page session has it: the one owner of the current URL and of
// whether an error page shows. The window's chrome and the status record read it.

public struct ShownPage: Sendable, Equatable {
    /// The view's URI, as WebKit reports it (one of Porthole's pages: its `porthole:` URL). The
    /// header bar and the menus' current site follow it.
    public var uri: String?
    /// The URL the page is about: the visitor's committed page, or the URL one of Porthole's
    /// pages stands for (the refused or the failing one). `porthole status` reports it.
    public var url: String?
    /// A failed load's page shows; a visitor's next load or a Blocked page ends it.
    public var isErrorPage = false

    public init(uri: String? = nil, url: String? = nil, isErrorPage: Bool = false) {
        self.uri = uri
        self.url = url
        self.isErrorPage = isErrorPage
    }

    /// The page after the session tells `notice`: every notice that changes what shows passes
    /// here, so the rule is written once.
    mutating func follow(_ notice: PageNotice) {
        switch notice {
        case .loadStarted: isErrorPage = false
        case .loadCommitted(let uri):
            self.uri = uri
            url = uri
        case .uri(let uri): self.uri = uri
        case .loadFailed(let uri, _):
            url = uri
            isErrorPage = true
        case .navigationBlocked(let uri, _, let shown) where shown:
            // The Blocked page stands in for the refused URL (its own load commits under a
            // `porthole:` URL that tells no commit).
            url = uri
            isErrorPage = false
        default: break
        }
    }
}
