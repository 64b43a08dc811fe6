// The page session: what a page may do and what the visitor sees next, as a pure reducer.

/// What a session needs from the configuration.
public struct PageSettings: Sendable, Equatable {
    /// Where Porthole's pages' Home buttons lead.
    public var homeURL: String?
    /// Network failures show a countdown and retry by themselves (kiosk mode).
    public var retriesNetworkFailures = false
    /// A crashed page comes back by itself.
    public var reloadsAfterCrash = true
    /// Drops from other applications are refused outright (kiosk mode).
    public var refusesDrops = false
    /// `[Browser] tls-exceptions=`.
    public var tlsExceptions: [String] = []
    /// `[Browser] unresponsive-timeout=`: seconds a page may stay unresponsive before its web
    /// process is ended and the page recovered as from a crash; nil never.
    public var unresponsiveTimeout: Double?
    /// Makes this session's `porthole:` page URLs distinct from other views' (`porthole://blocked/<tag>1`).
    public var pageTag = ""

    public init(homeURL: String? = nil) {
        self.homeURL = homeURL
    }
}

/// Owns everything about a page that outlives one WebKit signal: Porthole's own loads (matched by
/// URL and navigation type, never by the order WebKit asks), Porthole's own pages, the refusals a
/// failed load explains, crash and network back-off, and the hung-page watch. Every navigation,
/// Porthole's own included, is decided by `policy`. Time comes in with the events; there are no
/// clock reads and no I/O here.
public struct PageSession: Sendable {
    public var settings: PageSettings
    public var policy: @Sendable (PolicyRequest) -> PolicyDecision

    /// A top-level load Porthole asked WebKit for and WebKit has not asked about yet.
    private struct Expectation: Equatable {
        let uri: String
        let type: NavigationType
    }
    private var expected: [Expectation] = []
    /// The own load WebKit last asked about (its response may confirm a top-level `data:` URL).
    private var ownNavigation: String?
    /// The `porthole:` URLs of the pages shown, with the URL Reload tries again.
    private var ownPages: [(uri: String, retryURL: String)] = []
    private var nextPage = 1
    /// What the view shows (its URI, the URL it is about, an error page), as the notices told it.
    public private(set) var shown = ShownPage()
    /// The last committed URI (Porthole's pages too), which crash recovery brings back: not
    /// `shown.uri`, which already names the next page while a load is under way.
    private var committedURI: String?
    /// The main-frame load under way.
    private var loadingURI: String?
    /// Whether the load under way has committed (a load that crashes before it does is the
    /// kind an attacker can repeat: a redirect WebKit's web process dies on).
    private var loadCommitted = false
    /// Recent refusals, so a load WebKit then abandons is explained with the Blocked page.
    /// `download`: the policy allowed the site; the response was a file to save.
    private var refusals: [(uri: String, decision: PolicyDecision, mainFrame: Bool, download: Bool)] = []

    /// A form resubmission waiting for the visitor's answer: its decision and URL.
    private var resubmission: (id: Int, uri: String)?

    private var networkBackoff = RetryBackoff.network
    private var crashBackoff = RetryBackoff.crash
    private struct Pending: Equatable {
        let page: OwnPage
        let url: String
        let deadline: Double
        var shown: Int
        let isRetry: Bool
    }
    private var countdown: Pending?
    /// A URL whose load crashed the web process, and how many times in a row.
    private var loadCrashes: (uri: String, count: Int)?
    private var unresponsiveSince: Double?
    /// The page Porthole last ended because it stopped responding, how many times in a row and
    /// when: a page that hangs again at once (an `alert()` in a loop) is not brought back a second
    /// time. The run ends when another page commits or after `hangLoopWindow` seconds.
    private var hangs: (uri: String, count: Int, at: Double)?
    public static let hangLoopWindow: Double = 600
    /// The question to the web process last asked and not yet answered, and when the next is due:
    /// WebKit notices a hung page only when it has something to ask it (a key press), so a page
    /// nobody touches is asked every `askInterval` seconds.
    private var question: (id: Int, askedAt: Double)?
    private var nextQuestionAt: Double?
    private var nextQuestionID = 1
    public static let askInterval: Double = 5
    /// A load to start once the failed load has finished and the network process holds the
    /// certificate just accepted: both events, in either order, never a guess at timing.
    private struct CertificateRetry {
        let uri: String
        let host: String
        var attempts: Int
        var accepted = false
        var finished = false
    }
    private var certificateRetry: CertificateRetry?
    /// A load of Porthole's own whose sign-in WebKit withdrew, loaded again (see SignInRecovery).
    private var signIn = SignInRecovery()
    private var lastWake: Double?

    public init(settings: PageSettings = PageSettings(), policy: @escaping @Sendable (PolicyRequest) -> PolicyDecision) {
        self.settings = settings
        self.policy = policy
    }

    /// Whether `uri` is a countdown page (retrying, crashed): Back and Forward pass over them, as
    /// the page they count down to took their place.
    public static func isPassedOverInHistory(_ uri: String) -> Bool {
        uri.hasPrefix("\(PortholePage.scheme)://retrying/") || uri.hasPrefix("\(PortholePage.scheme)://crashed/")
    }

    /// Whether `uri` is one of the pages this session showed.
    public func isOwnPage(_ uri: String?) -> Bool {
        guard let uri else { return false }
        return ownPages.contains { $0.uri == uri }
    }

    public mutating func handle(_ event: PageEvent) -> [PageCommand] {
        var out: [PageCommand]
        switch event {
        case .loadRequested(let request):
            signIn.visitorAsked()
            out = loadRequested(request)
        case .reloadRequested(let current):
            signIn.visitorAsked()
            out = reloadRequested(current)
        case .stopRequested:
            signIn.visitorAsked()
            out = [.stop]
        case .signInWithdrawn:
            signIn.signInWithdrawn()
            out = []
        case .historyRequested(let direction, let target):
            signIn.visitorAsked()
            countdown = nil
            if let target { expect(target, .backForward) }
            out = [direction == .back ? .goBack : .goForward]
        case .navigationAsked(let id, let facts, let current): out = navigationAsked(id, facts, current: current)
        case .windowRequested(let uri, let current):
            // window.open() without a URL opens about:blank for its opener to write into: nothing to show.
            guard !uri.isEmpty, uri != "about:blank" else { return [] }
            out = newWindow(uri, current: current)
        case .responseAsked(let id, let facts, let current): out = responseAsked(id, facts, current: current)
        case .loadChanged(let stage, let uri): out = loadChanged(stage, uri: uri)
        case .loadFailed(let uri, let failure, let message, let now): out = loadFailed(uri, failure, message, now: now)
        case .certificateFailed(let uri, let problems, let accepted): out = certificateFailed(uri, problems: problems, accepted: accepted)
        case .certificateAccepted(let host):
            if certificateRetry?.host == host { certificateRetry?.accepted = true }
            out = startCertificateRetry()
        case .processTerminated(let reason, let now): out = processTerminated(reason, now: now)
        case .responsivenessChanged(let responsive, let now): out = responsivenessChanged(responsive, now: now)
        case .networkChanged(let available):
            out = []
            if available, let countdown, countdown.isRetry {
                out.append(.log(PageLog(.info, "network available: retrying now", ["PORTHOLE_EVENT": "network-available"])))
                out += fire(countdown)
            }
        case .pageWatchStarted(let now):
            out = []
            if settings.unresponsiveTimeout != nil, question == nil, nextQuestionAt == nil { nextQuestionAt = now + Self.askInterval }
        case .pageAnswered(let id, let now):
            out = []
            if question?.id == id {
                question = nil
                nextQuestionAt = now + Self.askInterval
            }
        case .tick(let now): out = tick(now)
        case .dropped(let text): out = dropped(text)
        case .resubmitAnswered(let id, let resend): out = resubmitAnswered(id, resend: resend)
        case .uriChanged(let uri): out = [.notice(.uri(uri))]
        }
        for case .notice(let notice) in out { shown.follow(notice) }
        return out + wakeCommand()
    }

    // MARK: Porthole's own loads

    private mutating func loadRequested(_ request: PageRequest) -> [PageCommand] {
        countdown = nil
        switch request {
        case .url(let uri): return ownLoad(uri)
        case .content(let base):
            expect(base ?? "about:blank", .other)
            return [.loadContent]
        case .unusableFile(let path):
            return show(.error(url: path, message: tr("Not a usable file path."), plain: true)) + [.notice(.loadFailed(uri: path, message: tr("Not a usable file path.")))]
        }
    }

    /// A top-level load Porthole starts: decided before WebKit sees it (WebKit runs `javascript:`
    /// URLs given to load_uri without asking) and again when WebKit asks.
    private mutating func ownLoad(_ uri: String) -> [PageCommand] {
        let decision = policy(PolicyRequest(url: uri, kind: .mainFrame))
        guard decision.isAllowed else { return refuseTopLevel(uri, decision: decision) }
        if let port = RestrictedPorts.port(of: uri) { return restrictedPort(port, uri: uri) }
        expect(uri, .other)
        return [.load(uri)]
    }

    private mutating func reloadRequested(_ current: String?) -> [PageCommand] {
        countdown = nil
        // Reload on one of Porthole's pages tries the URL it is about, not the page.
        if let current, let page = ownPages.last(where: { $0.uri == current }) { return ownLoad(page.retryURL) }
        guard let current, !current.isEmpty else { return [] }
        expect(current, .reload)
        return [.reload]
    }

    private mutating func expect(_ uri: String, _ type: NavigationType) {
        expected.append(Expectation(uri: Self.key(uri), type: type))
        if expected.count > 8 { expected.removeFirst() }
    }

    /// Whether a navigation is one Porthole asked for: same URL, same navigation type.
    private mutating func takeExpectation(_ uri: String, _ type: NavigationType) -> Bool {
        let wanted = Expectation(uri: Self.key(uri), type: type)
        guard let index = expected.firstIndex(of: wanted) else { return false }
        expected.remove(at: index)
        return true
    }

    /// URLs compare in canonical form: WebKit hands back `http://host/` for `http://host`.
    private static func key(_ uri: String) -> String { CanonicalURL(uri)?.string ?? uri }

    // MARK: Decisions

    private mutating func navigationAsked(_ id: Int, _ facts: NavigationFacts, current: String?) -> [PageCommand] {
        let uri = facts.uri
        if uri == PortholePage.backURL { return [.ignore(id), .goBack] }
        if facts.isNewWindow { return [.ignore(id)] + newWindow(uri, current: current) }
        if facts.type == .formResubmitted {
            // Sending a form again can order or pay twice: the visitor decides, then the policy.
            let earlier: [PageCommand] = resubmission.map { [.ignore($0.id)] } ?? []
            resubmission = (id, uri)
            return earlier + [.askBeforeResubmitting(id: id)]
        }
        let isOwn = !facts.isRedirect && takeExpectation(uri, facts.type)
        if !facts.isRedirect { signIn.navigationAsked(own: isOwn) }
        if isOwn {
            ownNavigation = uri
            let decision = policy(PolicyRequest(url: uri, kind: .mainFrame))
            guard decision.isAllowed else { return [.ignore(id)] + refuseTopLevel(uri, decision: decision) }
            if let port = RestrictedPorts.port(of: uri) { return [.ignore(id)] + restrictedPort(port, uri: uri) }
            return [.use(id)]
        }
        if facts.isRedirect {
            // A redirect may be the main frame's: a `data:` hop is refused outright (fail closed).
            if Self.isData(uri) { return [.ignore(id)] + refuse(uri, decision: .blocked(tr("blocked: redirects to data: URLs are refused")), frame: "redirect") }
            let decision = policy(PolicyRequest(url: uri, kind: .mainFrame, sourceURL: current))
            guard decision.isAllowed else { return [.ignore(id)] + refuse(uri, decision: decision, frame: "redirect") }
            return [.use(id)]
        }
        // A page-initiated navigation: WebKitGTK does not say whether it is the main frame's or a
        // frame's, so it is decided as a frame of the page; the response decision, which does
        // say, refuses a top-level `data:` document.
        let decision = policy(PolicyRequest(url: uri, kind: .subframe, sourceURL: current))
        guard decision.isAllowed else { return [.ignore(id)] + refuse(uri, decision: decision, frame: "page-initiated") }
        // WebKit would commit an empty page without reporting a failure.
        if RestrictedPorts.port(of: uri) != nil { return [.ignore(id)] }
        return [.use(id)]
    }

    /// The visitor answered the resubmission question: an answer to no pending question does
    /// nothing; "send again" is still decided by the site policy, as the page's own load.
    private mutating func resubmitAnswered(_ id: Int, resend: Bool) -> [PageCommand] {
        guard let pending = resubmission, pending.id == id else { return [] }
        resubmission = nil
        guard resend else { return [.ignore(id)] }
        let decision = policy(PolicyRequest(url: pending.uri, kind: .mainFrame))
        guard decision.isAllowed else { return [.ignore(id)] + refuseTopLevel(pending.uri, decision: decision) }
        return [.use(id)]
    }

    /// target=_blank and window.open: decided as a new top-level page and, if allowed, loaded here.
    private mutating func newWindow(_ uri: String, current: String?) -> [PageCommand] {
        let decision = policy(PolicyRequest(url: uri, kind: .newWindow, sourceURL: current))
        guard decision.isAllowed else { return refuse(uri, decision: decision, frame: "new-window") }
        return ownLoad(uri)
    }

    private mutating func responseAsked(_ id: Int, _ facts: ResponseFacts, current: String?) -> [PageCommand] {
        let uri = facts.uri
        let own = facts.isMainFrame && ownNavigation.map(Self.key) == Self.key(uri)
        var decision = policy(facts.isMainFrame ? PolicyRequest(url: uri, kind: .mainFrame)
                                                : PolicyRequest(url: uri, kind: .subframe, sourceURL: current))
        if facts.isMainFrame, !own, Self.isData(uri) {
            decision = .blocked(tr("blocked: a page cannot open a data: URL as the whole page"))
        }
        let download = decision.isAllowed && !facts.canShow
        if download {
            decision = .blocked(tr("This is a file to download, and this browser does not download files."))
        }
        guard decision.isAllowed else {
            if facts.isMainFrame {
                // Explained with the Blocked page (or, for a download, its own page) when WebKit
                // reports the abandoned load.
                remember(uri, decision: decision, mainFrame: true, download: download)
                return [.ignore(id), .log(Self.refusalLog(uri, reason: decision.reason, frame: "main"))]
            }
            return [.ignore(id)] + refuse(uri, decision: decision, frame: "subframe")
        }
        return [.use(id)]
    }

    // MARK: Refusals

    /// A refused top-level load of Porthole's: the Blocked page, under a `porthole:` URL.
    /// The page shows the reason in the visitor's language; the log keeps it in English.
    private mutating func refuseTopLevel(_ uri: String, decision: PolicyDecision) -> [PageCommand] {
        [.log(Self.refusalLog(uri, reason: decision.reason, frame: "main"))]
            + show(.blocked(url: uri, reason: decision.localizedReason))
            + [.notice(.navigationBlocked(uri: uri, reason: decision.reason, shown: true))]
    }

    /// A refused navigation a page started: the page stays; the window tells the visitor.
    private mutating func refuse(_ uri: String, decision: PolicyDecision, frame: String) -> [PageCommand] {
        remember(uri, decision: decision, mainFrame: false)
        return [.log(Self.refusalLog(uri, reason: decision.reason, frame: frame)),
                .notice(.navigationBlocked(uri: uri, reason: decision.reason, shown: false))]
    }

    private mutating func remember(_ uri: String, decision: PolicyDecision, mainFrame: Bool, download: Bool = false) {
        refusals.append((uri, decision, mainFrame, download))
        if refusals.count > 8 { refusals.removeFirst() }
    }

    /// Every refusal is one structured log line, whatever refused it.
    static func refusalLog(_ uri: String, reason: String, frame: String) -> PageLog {
        PageLog(.message, "blocked \(uri): \(reason)",
                ["PORTHOLE_EVENT": "navigation-blocked", "PORTHOLE_URL": uri, "PORTHOLE_FRAME": frame, "PORTHOLE_REASON": reason])
    }

    private mutating func restrictedPort(_ port: Int, uri: String) -> [PageCommand] {
        let message = RestrictedPorts.message(port: port)
        return show(.error(url: uri, message: message, plain: true)) + [.notice(.loadFailed(uri: uri, message: message))]
    }

    private mutating func dropped(_ text: String) -> [PageCommand] {
        let uri = text.split(whereSeparator: \.isNewline).first.map { String($0).trimmingWhitespace } ?? ""
        if settings.refusesDrops || uri.isEmpty || CanonicalURL(uri) == nil {
            return [.log(PageLog(.info, "refused a drop", ["PORTHOLE_EVENT": "refused", "PORTHOLE_WHAT": "drop"])),
                    .notice(.refused("drop"))]
        }
        // Decided like a typed address, except that a dropped data: document is never shown.
        if Self.isData(uri) { return refuseTopLevel(uri, decision: .blocked(tr("blocked: dropped data: URLs are refused"))) }
        countdown = nil
        return ownLoad(uri)
    }

    private static func isData(_ uri: String) -> Bool {
        uri.prefix(5).lowercased() == "data:" || CanonicalURL(uri)?.scheme == "data"
    }

    // MARK: Porthole's pages

    private mutating func show(_ page: OwnPage) -> [PageCommand] {
        let uri = "\(PortholePage.scheme)://\(page.name)/\(settings.pageTag)\(nextPage)"
        nextPage += 1
        ownPages.append((uri, page.url))
        if ownPages.count > 16 { ownPages.removeFirst() }
        expect(uri, .other)
        return [.show(page, uri: uri)]
    }

    // MARK: Loads

    /// The window was told that the load in progress started (cleared when it commits or ends).
    private var startTold = false

    private mutating func loadChanged(_ stage: LoadStage, uri: String) -> [PageCommand] {
        let own = isOwnPage(uri)
        switch stage {
        case .started:
            signIn.loadStarted()
            guard !own else { return [] }
            loadingURI = uri
            loadCommitted = false
            startTold = true
            return [.notice(.loadStarted)]
        case .redirected:
            return []
        case .committed:
            committedURI = uri
            signIn.loadCommitted()
            guard !own else { return [] }
            loadingURI = uri
            loadCommitted = true
            if hangs?.uri != uri { hangs = nil }
            networkBackoff.reset()
            countdown = nil
            if Self.isData(uri), ownNavigation.map(Self.key) != Self.key(uri) {
                // WebKit asked no response decision for this top-level data: document: fail closed.
                let reason = tr("blocked: a page cannot open a data: URL as the whole page")
                return [.stop, .log(Self.refusalLog(uri, reason: reason, frame: "main"))] + show(.blocked(url: uri, reason: reason))
            }
            // A link on one of Porthole's pages (the error page's Retry) starts its load while the
            // view still names that page, so its start looked like the page's own: told now.
            let missedStart: [PageCommand] = startTold ? [] : [.notice(.loadStarted)]
            startTold = false
            return missedStart + [.notice(.loadCommitted(uri: uri))]
        case .finished:
            // Only a load that committed ends a run of crashing loads.
            if !own, loadCommitted { loadCrashes = nil }
            loadingURI = nil
            startTold = false
            // Starting the retry only after the failed load ended keeps that load's teardown
            // from cancelling it.
            certificateRetry?.finished = true
            return [.notice(.loadFinished)] + startCertificateRetry() + startSignInRetry()
        }
    }

    /// The certificate retry's load, once the failed load has finished and the exception is held.
    private mutating func startCertificateRetry() -> [PageCommand] {
        guard let retry = certificateRetry, retry.accepted, retry.finished else { return [] }
        certificateRetry = nil
        expect(retry.uri, .other)
        retriedCertificate = (retry.uri, retry.host, retry.attempts)
        return [.load(retry.uri)]
    }

    /// Loads again, once the cancelled load has ended, the address whose sign-in WebKit withdrew,
    /// decided by the policy as any load of Porthole's own.
    private mutating func startSignInRetry() -> [PageCommand] {
        guard let uri = signIn.loadFinished() else { return [] }
        return ownLoad(uri)
    }

    /// The certificate retry last started, so one cancelled by WebKit is started again.
    private var retriedCertificate: (uri: String, host: String, attempts: Int)?

    private mutating func loadFailed(_ uri: String, _ failure: LoadFailure, _ message: String, now: Double) -> [PageCommand] {
        switch failure {
        case .cancelled:
            if let retry = retriedCertificate, retry.uri == uri, retry.attempts < 3 {
                // The exception is held already: only the cancelled load's end is awaited.
                certificateRetry = CertificateRetry(uri: uri, host: retry.host, attempts: retry.attempts + 1, accepted: true)
            }
            if signIn.loadCancelled(uri: uri, isLastStarted: loadingURI.map(Self.key) == Self.key(uri)) {
                return [.log(PageLog(.message, "WebKit withdrew the sign-in of \(uri) as its load started; loading it again "
                                     + "(\(signIn.attempt) of \(SignInRecovery.maximumAttempts))",
                                     ["PORTHOLE_EVENT": "sign-in-retry", "PORTHOLE_URL": uri, "PORTHOLE_ATTEMPT": String(signIn.attempt)]))]
            }
            return []  // a new load replaced this one
        case .interruptedByPolicy:
            // Porthole refused something inside this load (a redirect hop, the response).
            guard let refusal = refusals.last(where: { Self.key($0.uri) == Self.key(uri) }) ?? refusals.last(where: { $0.mainFrame }) else { return [] }
            refusals.removeAll()
            return show(refusal.download ? .download(url: refusal.uri) : .blocked(url: refusal.uri, reason: refusal.decision.localizedReason))
                + [.notice(.navigationBlocked(uri: refusal.uri, reason: refusal.decision.reason, shown: true))]
        case .network, .other:
            // One of Porthole's own pages failing shows no other page (no loop of pages).
            if isOwnPage(uri) { return [] }
            if failure == .network, settings.retriesNetworkFailures {
                let delay = networkBackoff.delay(afterFailureAt: now)
                let page = OwnPage.retrying(url: uri, message: message, seconds: delay)
                countdown = Pending(page: page, url: uri, deadline: now + Double(delay), shown: delay, isRetry: true)
                return [.log(PageLog(.message, "network failure, retrying in \(delay) s: \(uri)",
                                     ["PORTHOLE_EVENT": "retry-scheduled", "PORTHOLE_URL": uri, "PORTHOLE_DELAY": String(delay)]))]
                    + show(page) + [.notice(.loadFailed(uri: uri, message: message))]
            }
            return show(.error(url: uri, message: message)) + [.notice(.loadFailed(uri: uri, message: message))]
        }
    }

    private mutating func certificateFailed(_ uri: String, problems: [String], accepted: [String]) -> [PageCommand] {
        if case .acceptForHost(let host) = CertificatePolicy.decide(url: uri, exceptions: settings.tlsExceptions),
           !accepted.contains(host) {
            certificateRetry = CertificateRetry(uri: uri, host: host, attempts: 0)
            return [.acceptCertificate(host: host),
                    .log(PageLog(.message, "accepted the certificate of \(host) (tls-exceptions)",
                                 ["PORTHOLE_EVENT": "tls-exception", "PORTHOLE_URL": uri]))]
        }
        return [.log(PageLog(.warning, "certificate refused for \(uri): \(problems.joined(separator: " "))",
                             ["PORTHOLE_EVENT": "tls-error", "PORTHOLE_URL": uri]))]
            + show(.certificate(url: uri, problems: problems))
            + [.notice(.loadFailed(uri: uri, message: problems.joined(separator: " ")))]
    }

    // MARK: Recovery

    private mutating func processTerminated(_ reason: Termination, now: Double) -> [PageCommand] {
        let current = committedURI ?? ""
        unresponsiveSince = nil
        // The next page to commit starts the questions again.
        question = nil
        nextQuestionAt = nil
        var out: [PageCommand] = [
            .log(PageLog(.message, "web process ended (\(reason.rawValue)): \(current)",
                         ["PORTHOLE_EVENT": "web-process-terminated", "PORTHOLE_URL": current, "PORTHOLE_REASON": reason.rawValue])),
            .notice(.webProcessTerminated),
        ]
        guard settings.reloadsAfterCrash else { return out }
        if let countdown {
            // The countdown page itself went down: show it again; the wait stays as it was.
            let seconds = Countdown.secondsLeft(until: countdown.deadline, now: now)
            let page: OwnPage = countdown.isRetry
                ? .retrying(url: countdown.url, message: Self.message(of: countdown.page), seconds: seconds)
                : .crashed(url: countdown.url, seconds: seconds)
            self.countdown?.shown = seconds
            return out + show(page)
        }
        // The page to bring back: the one loading, else the one shown.
        let loading = loadingURI.flatMap { isOwnPage($0) ? nil : $0 }
        guard let uri = loading ?? (current.isEmpty ? nil : ownPages.last(where: { $0.uri == current })?.retryURL ?? current) else { return out }
        if reason == .terminatedByAPI, let hang = hangs, hang.count >= 2, hang.uri == current {
            out.append(.log(PageLog(.warning, "not reloading \(uri): it stopped responding twice in a row",
                                    ["PORTHOLE_EVENT": "hang-loop", "PORTHOLE_URL": uri])))
            return out + show(.hangLoop(url: uri))
        }
        if loading != nil {
            let count = loadCrashes?.uri == uri ? (loadCrashes?.count ?? 0) + 1 : 1
            loadCrashes = (uri, count)
            if count >= 2 {
                out.append(.log(PageLog(.warning, "not reloading \(uri): its load ended the web process twice in a row",
                                        ["PORTHOLE_EVENT": "crash-loop", "PORTHOLE_URL": uri])))
                return out + show(.crashLoop(url: uri))
            }
        }
        let delay = crashBackoff.delay(afterFailureAt: now)
        out.append(.log(PageLog(.message, "reloading after the web process ended, in \(delay) s: \(uri)",
                                ["PORTHOLE_EVENT": "crash-recovery", "PORTHOLE_URL": uri, "PORTHOLE_DELAY": String(delay)])))
        if delay == 0 {
            expect(uri, .other)
            return out + [.load(uri)]
        }
        let page = OwnPage.crashed(url: uri, seconds: delay)
        countdown = Pending(page: page, url: uri, deadline: now + Double(delay), shown: delay, isRetry: false)
        return out + show(page)
    }

    private static func message(of page: OwnPage) -> String {
        if case .retrying(_, let message, _) = page { return message }
        return ""
    }

    private mutating func responsivenessChanged(_ responsive: Bool, now: Double) -> [PageCommand] {
        if responsive {
            unresponsiveSince = nil
            return []
        }
        guard let timeout = settings.unresponsiveTimeout else { return [] }
        unresponsiveSince = now
        return [.log(PageLog(.info, "the page stopped responding; ending it after \(Int(timeout)) s unless it recovers",
                             ["PORTHOLE_EVENT": "page-unresponsive", "PORTHOLE_URL": committedURI ?? ""]))]
    }

    private mutating func tick(_ now: Double) -> [PageCommand] {
        var out: [PageCommand] = []
        if let since = unresponsiveSince, let timeout = settings.unresponsiveTimeout, now >= since + timeout {
            out += endHungPage(now: now, "the page did not respond for \(Int(timeout)) s: ending its web process")
        } else if let question, let timeout = settings.unresponsiveTimeout, now >= question.askedAt + timeout {
            out += endHungPage(now: now, "the page did not answer for \(Int(timeout)) s: ending its web process")
        } else if question == nil, let due = nextQuestionAt, now >= due {
            question = (nextQuestionID, now)
            nextQuestionAt = nil
            out.append(.askPage(id: nextQuestionID))
            nextQuestionID += 1
        }
        if var countdown {
            if now >= countdown.deadline {
                out += fire(countdown)
            } else {
                let seconds = Countdown.secondsLeft(until: countdown.deadline, now: now)
                if seconds != countdown.shown {
                    countdown.shown = seconds
                    self.countdown = countdown
                    out.append(.updateCountdown(PortholePage.countdownText(countdown.isRetry ? .retry : .reload, secondsLeft: seconds)))
                }
            }
        }
        return out
    }

    /// Ends the web process of a page that stopped responding, counting the run of such ends.
    private mutating func endHungPage(now: Double, _ text: String) -> [PageCommand] {
        unresponsiveSince = nil
        question = nil
        nextQuestionAt = nil
        let uri = committedURI ?? ""
        let again = hangs.map { $0.uri == uri && now - $0.at <= Self.hangLoopWindow } ?? false
        hangs = (uri, again ? (hangs?.count ?? 0) + 1 : 1, now)
        return [.log(PageLog(.warning, text, ["PORTHOLE_EVENT": "page-hung", "PORTHOLE_URL": uri])), .notice(.webProcessHung), .terminateWebProcess]
    }

    private mutating func fire(_ countdown: Pending) -> [PageCommand] {
        self.countdown = nil
        return ownLoad(countdown.url)
    }

    /// The next wake-up: the countdown's next shown change, or the hung-page deadline.
    private mutating func wakeCommand() -> [PageCommand] {
        var times: [Double] = []
        if let countdown {
            let shownChange = countdown.deadline - Double(countdown.shown - 1)
            times.append(min(countdown.deadline, shownChange))
        }
        if let since = unresponsiveSince, let timeout = settings.unresponsiveTimeout { times.append(since + timeout) }
        if let question, let timeout = settings.unresponsiveTimeout { times.append(question.askedAt + timeout) }
        if let nextQuestionAt { times.append(nextQuestionAt) }
        let next = times.min()
        guard next != lastWake else { return [] }
        lastWake = next
        return [.wake(at: next)]
    }
}
