// What a page session hears (WebKit's signals as plain values) and what it answers (commands).

/// How WebKit says a navigation came about (`WebKitNavigationType`).
public enum NavigationType: Sendable, Equatable {
    case linkClicked, formSubmitted, backForward, reload, formResubmitted, other
}

/// One navigation WebKit asks about (a NAVIGATION_ACTION or NEW_WINDOW_ACTION decision).
public struct NavigationFacts: Sendable, Equatable {
    public var uri: String
    public var type: NavigationType
    public var isRedirect: Bool
    public var isUserGesture: Bool
    /// `target=_blank` or `window.open`: a new top-level page, which Porthole loads in its one view.
    public var isNewWindow: Bool

    public init(uri: String, type: NavigationType = .other, isRedirect: Bool = false, isUserGesture: Bool = false,
                isNewWindow: Bool = false) {
        self.uri = uri
        self.type = type
        self.isRedirect = isRedirect
        self.isUserGesture = isUserGesture
        self.isNewWindow = isNewWindow
    }
}

/// A response WebKit asks about (a RESPONSE decision): the only moment WebKitGTK says whether a
/// load is the main frame's (`webkit_response_policy_decision_is_main_frame_main_resource`).
public struct ResponseFacts: Sendable, Equatable {
    /// The response's URL (after redirects).
    public var uri: String
    public var isMainFrame: Bool
    /// Whether the view can show the MIME type; anything else would be a download.
    public var canShow: Bool

    public init(uri: String, isMainFrame: Bool, canShow: Bool = true) {
        self.uri = uri
        self.isMainFrame = isMainFrame
        self.canShow = canShow
    }
}

/// Porthole's own request to show something.
public enum PageRequest: Sendable, Equatable {
    /// A URL: typed, Open menu, Home, command line.
    case url(String)
    /// HTML or bytes the adapter holds, shown under `baseURI` (about:blank without one).
    case content(baseURI: String?)
    /// A local path that has no `file:` URI.
    case unusableFile(path: String)
}

public enum LoadStage: Sendable, Equatable { case started, redirected, committed, finished }

public enum HistoryDirection: Sendable, Equatable { case back, forward }

/// Why the web process ended (`WebKitWebProcessTerminationReason`).
public enum Termination: String, Sendable, Equatable {
    case crashed
    case exceededMemoryLimit = "exceeded-memory-limit"
    case terminatedByAPI = "terminated-by-api"
}

public enum PageEvent: Sendable, Equatable {
    case loadRequested(PageRequest)
    /// Stop (the button, Escape, the window closing).
    case stopRequested
    /// WebKit cancelled a sign-in request (its "cancelled") that Porthole had not answered.
    case signInWithdrawn
    /// Reload (F5, the button); `currentURI` is the view's.
    case reloadRequested(currentURI: String?)
    /// Back or Forward; `targetURI` is the history item WebKit will load.
    case historyRequested(HistoryDirection, targetURI: String?)
    /// decide-policy for a navigation; `id` names the decision in the answering command.
    case navigationAsked(id: Int, NavigationFacts, currentURI: String?)
    /// `create` (window.open): a page asks for a new window.
    case windowRequested(uri: String, currentURI: String?)
    case responseAsked(id: Int, ResponseFacts, currentURI: String?)
    /// load-changed, with the view's URI at that moment.
    case loadChanged(LoadStage, uri: String)
    case loadFailed(uri: String, failure: LoadFailure, message: String, at: Double)
    /// load-failed-with-tls-errors. `acceptedHosts`: hosts for which this very certificate was
    /// already accepted in this view.
    case certificateFailed(uri: String, problems: [String], acceptedHosts: [String])
    /// The network process holds the exception `.acceptCertificate` asked for: an answer it sent
    /// after handling that request has come back (WebKit's own call reports no completion).
    case certificateAccepted(host: String)
    case processTerminated(Termination, at: Double)
    /// `is-web-process-responsive` changed.
    case responsivenessChanged(Bool, at: Double)
    case networkChanged(available: Bool)
    /// A page committed in the view: with an `unresponsive-timeout`, the session asks its web
    /// process for an answer every `PageSession.askInterval` seconds from now on (`.askPage`).
    case pageWatchStarted(at: Double)
    /// The web process answered `.askPage(id)`.
    case pageAnswered(id: Int, at: Double)
    /// The time a wake-up asked for has come (monotonic seconds).
    case tick(Double)
    /// A URL or text dropped on the view from another application.
    case dropped(String)
    /// The visitor's answer to `.askBeforeResubmitting`: send the form again, or not.
    case resubmitAnswered(id: Int, resend: Bool)
    /// WebKit's `uri` property changed (a load started or committed, a redirect, `pushState`).
    case uriChanged(String?)
}

/// What the window (and through it the status record) hears about the page: the one vocabulary
/// from the web view up. The page session sends the load's and the policy's notices; the view's
/// adapter adds what WebKit's properties and doors tell.
public enum PageNotice: Sendable, Equatable {
    /// A load of the visitor's (not one of Porthole's own pages) started.
    case loadStarted
    case loadCommitted(uri: String)
    case loadFinished
    /// A load failed and the view now shows the error page (cancellations are not reported).
    case loadFailed(uri: String, message: String)
    /// A navigation was refused; `shown` tells whether the Blocked page replaced the view's page.
    case navigationBlocked(uri: String, reason: String, shown: Bool)
    case webProcessTerminated
    /// The page stopped responding and its web process is being ended (then `webProcessTerminated`).
    case webProcessHung
    /// The rules refused what a page or a visitor asked for: `context-menu`, `print`, `file-chooser`.
    case refused(String)
    /// WebKit's `estimated-load-progress`, `title`, `uri` and `is-loading` properties.
    case progress(Double)
    case title(String?)
    case uri(String?)
    case loading(Bool)
    /// What the back-forward list allows now.
    case history(canGoBack: Bool, canGoForward: Bool)
    /// Back or Forward found no page there (a Blocked page's Back with nothing before it).
    case historyEmpty(HistoryDirection)
    /// A permission request was answered (`camera+microphone`, `geolocation`, …).
    case permissionAnswered(String, granted: Bool)
    /// The window started a kiosk's next visitor session (a fresh context and view).
    case visitorSessionStarted
}

public struct PageLog: Sendable, Equatable {
    public enum Level: Sendable, Equatable { case info, message, warning }
    public var level: Level
    public var text: String
    public var fields: [String: String]

    public init(_ level: Level, _ text: String, _ fields: [String: String]) {
        self.level = level
        self.text = text
        self.fields = fields
    }
}

public enum PageCommand: Sendable, Equatable {
    /// Answer decision `id`.
    case use(Int)
    case ignore(Int)
    /// `webkit_web_view_load_uri`.
    case load(String)
    /// Load the HTML or bytes the adapter holds for the last `.content` request.
    case loadContent
    case reload
    case goBack
    case goForward
    case stop
    /// Show one of Porthole's pages: the adapter serves it at `uri` (a `porthole:` URL) and loads that.
    case show(OwnPage, uri: String)
    /// Set the countdown line of the page showing to this text.
    case updateCountdown(String)
    /// Send `.tick` at this monotonic time (nil: no wake-up needed).
    case wake(at: Double?)
    case terminateWebProcess
    /// Ask the page's web process for an answer (a round trip through the web process
    /// extension), answered by `.pageAnswered(id:at:)`: a page nobody touches is still watched.
    case askPage(id: Int)
    /// Accept the certificate of the failed load for `host` (`[Browser] tls-exceptions=`), then
    /// send `.certificateAccepted(host:)` once the network process has it.
    case acceptCertificate(host: String)
    case notice(PageNotice)
    /// Keep decision `id` unanswered and ask the visitor whether to send a form again (reloading
    /// the result of a POST); the answer comes back as `.resubmitAnswered`.
    case askBeforeResubmitting(id: Int)
    case log(PageLog)
}
