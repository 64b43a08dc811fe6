// What the window session hears (the page's notices, the view's state, the person's intents) and
// what it answers (commands the window turns into GTK and WebKit calls).

/// What the person asks the window for: a button, a menu item, a key, the wheel.
public enum WindowIntent: Sendable, Equatable {
    case back, forward, reload, stop
    /// The home page; `fromButton`: the page takes the focus (the application's own Home does not).
    case home(fromButton: Bool)
    /// A URL typed or handed to the application.
    case openURL(String)
    /// A site chosen by name; `fromMenu`: the page takes the focus once the menu has closed.
    case openSite(String, fromMenu: Bool)
    /// Zoom steps from `current`, the view's level now (a pinch may have changed it).
    case zoomIn(current: Double)
    case zoomOut(current: Double)
    case zoomReset
    /// Ctrl+wheel: `delta` notches (negative: away from the person, which zooms in).
    case zoomScrolled(delta: Double, current: Double)
    case find, findNext, findPrevious
    case print
}

/// What the window hears; what the view shows (its URI, an error page) is not among it: the page
/// session has that (`ShownPage`), and the window reads it with each event.
public enum WindowEvent: Sendable, Equatable {
    case loadStarted
    case loadCommitted(at: Double)
    /// A navigation was refused; `shown`: the Blocked page replaced the page.
    case navigationBlocked(uri: String, reason: String, shown: Bool, at: Double)
    case progress(Double)
    case title(String?)
    case loading(Bool)
    /// What WebKit's back-forward list allows now (read after every view event).
    case history(canGoBack: Bool, canGoForward: Bool)
    case webProcessTerminated
    /// The rules refused what a page asked for (`file-chooser`, `print`, `context-menu`).
    case refused(String, at: Double)
    /// A Back or Forward found no page there (a Blocked or error page's Back with nothing before it).
    case historyEmpty(HistoryDirection)
    /// The notice's close button.
    case noticeDismissed
    /// The Open or Sites menu closed.
    case menuClosed
    /// A kiosk's next visitor session: a new view, nothing of the last page kept.
    case sessionRenewed
    /// The time a wake-up asked for has come (monotonic seconds).
    case tick(Double)
    case intent(WindowIntent)
}

/// What the notice bar over the page says while it shows.
public struct WindowNotice: Sendable, Equatable {
    public var text: String
    public var icon: String
    /// The refusal burst it counts, or nil for a one-off message (a reloaded page, a refused file chooser).
    public var refusal: RefusalNotice?

    public init(text: String, icon: String, refusal: RefusalNotice? = nil) {
        self.text = text
        self.icon = icon
        self.refusal = refusal
    }

    /// The refusal notice's icon; messages bring their own.
    public static let refusalIcon = "action-unavailable-symbolic"
}

/// One refused navigation, as the status and the tests read it.
public struct WindowRefusal: Sendable, Equatable {
    public var uri: String
    public var reason: String

    public init(uri: String, reason: String) {
        self.uri = uri
        self.reason = reason
    }
}

/// The refused navigations, counted and the most recent kept: the window session owns them, the
/// status record reports them.
public struct RefusalLog: Sendable, Equatable {
    /// The most recent, newest last, at most `kept`.
    public private(set) var recent: [WindowRefusal] = []
    /// How many there were, all told.
    public private(set) var count = 0
    public static let kept = 50

    public init() {}

    public mutating func append(_ refusal: WindowRefusal) {
        count += 1
        recent.append(refusal)
        if recent.count > Self.kept { recent.removeFirst() }
    }
}

public enum WindowCommand: Sendable, Equatable {
    case goBack, goForward, reload, stop
    /// Load this URL (upgraded to `https://` where the settings say so).
    case load(String)
    case focusPage
    /// Give the page the focus once the closing menu has handed it back to its button.
    case focusPageSoon
    /// Set the view's zoom and show the level over the page.
    case setZoom(Double)
    case openFind, findNext, findPrevious
    case print
    case showNotice(WindowNotice)
    case hideNotice
    /// Mark this site (its name, or "" for none) as the current one in the menus.
    case markSite(String)
    /// Send `.tick` at this monotonic time (nil: no wake-up needed).
    case wake(at: Double?)
    case log(PageLog)
}

extension WindowEvent {
    /// The window's event for a page notice at `now`, or nil when the window has nothing to do with it.
    public init?(_ notice: PageNotice, at now: Double) {
        switch notice {
        case .loadStarted: self = .loadStarted
        case .loadCommitted: self = .loadCommitted(at: now)
        case .navigationBlocked(let uri, let reason, let shown): self = .navigationBlocked(uri: uri, reason: reason, shown: shown, at: now)
        case .progress(let value): self = .progress(value)
        case .title(let title): self = .title(title)
        case .loading(let loading): self = .loading(loading)
        case .history(let back, let forward): self = .history(canGoBack: back, canGoForward: forward)
        case .historyEmpty(let direction): self = .historyEmpty(direction)
        case .webProcessTerminated: self = .webProcessTerminated
        case .refused(let what): self = .refused(what, at: now)
        // The URI and a failed load are the page session's to keep (`ShownPage`).
        case .loadFailed, .uri, .loadFinished, .permissionAnswered, .webProcessHung, .visitorSessionStarted: return nil
        }
    }
}
