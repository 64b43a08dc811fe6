// A sign-in WebKit takes back by itself. The network process asks for the password and the web
// process says the load started: two processes, with no order between them. When the question
// reaches the UI process first, WebKitGTK's own load-started handling cancels "the" pending sign-in
// request (webkitWebViewCompleteAuthenticationRequest), which is that very load's. The load then
// ends cancelled with nothing shown: on a busy machine the dialog flashes and a first page stays
// blank. This value tells that cancellation from every other one (a newer load, Stop, the page
// navigating away) by what was asked for since the load started, never by timing.

/// Whether a load of Porthole's own that ended cancelled under a withdrawn sign-in is loaded again.
public struct SignInRecovery: Sendable, Equatable {
    /// How often one address is loaded again before the view is left as WebKit left it.
    public static let maximumAttempts = 3

    struct Attempts: Sendable, Equatable {
        let uri: String
        var count: Int
    }

    /// Something was asked for that has not started yet (a load, a reload, Back or Forward, Stop,
    /// a page's navigation): a load that ends cancelled now is being replaced or stopped.
    private var asked = false
    /// The navigation asked last is one Porthole started (Home, a site, a typed address), never a
    /// form or a page's navigation, which loading again could change.
    private var ownLoad = false
    /// WebKit cancelled a sign-in request nobody answered, since the last load ended.
    private var withdrawn = false
    /// The address to load again once the cancelled load has ended.
    private var pending: String?
    private var attempts: Attempts?

    public init() {}

    /// The visitor or Porthole asked for a load, a reload, Back, Forward or Stop.
    public mutating func visitorAsked() {
        asked = true
        attempts = nil
    }

    /// WebKit asked about a navigation (not a redirect of the load under way); `own`: one of
    /// Porthole's own loads, not a page's.
    public mutating func navigationAsked(own: Bool) {
        asked = true
        ownLoad = own
    }

    /// A load started (WebKit's load-changed STARTED).
    public mutating func loadStarted() { asked = false }

    /// WebKit cancelled a sign-in request that Porthole had not answered.
    public mutating func signInWithdrawn() { withdrawn = true }

    /// A load of `uri` ended cancelled; `isLastStarted`: it is the load that started last. True
    /// when it is to be loaded again.
    public mutating func loadCancelled(uri: String, isLastStarted: Bool) -> Bool {
        guard withdrawn, !asked, ownLoad, isLastStarted else { return false }
        let count = attempts?.uri == uri ? attempts?.count ?? 0 : 0
        guard count < Self.maximumAttempts else { return false }
        attempts = Attempts(uri: uri, count: count + 1)
        pending = uri
        return true
    }

    /// The attempt just granted (1 for the first load again), for the log.
    public var attempt: Int { attempts?.count ?? 0 }

    /// A load ended (load-changed FINISHED): the address to load again now, if any. Loading it only
    /// now keeps the ended load's teardown from cancelling the new one.
    public mutating func loadFinished() -> String? {
        withdrawn = false
        defer { pending = nil }
        return pending
    }

    /// A page committed: the address got through, and a later withdrawal counts from none.
    public mutating func loadCommitted() { attempts = nil }
}
