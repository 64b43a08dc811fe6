// What the window shows and does, as one value: the page's notices, the view's state and the
// person's intents go in, commands come out. Pure: time is an input, no GTK, no WebKit.

/// What the window's decisions depend on (from the configuration; a reload replaces it).
public struct WindowSettings: Sendable, Equatable {
    public var sites: SiteList
    public var homeURL: String
    /// Load `http://` sites over `https://`.
    public var httpsOnly = false
    /// A crashed page comes back by itself (and then says so).
    public var reloadsAfterCrash = true
    public var printing = true
    /// The configured zoom level, which Ctrl+0 goes back to.
    public var zoom = 1.0

    public init(sites: SiteList, homeURL: String) {
        self.sites = sites
        self.homeURL = homeURL
    }
}

public struct WindowSession: Sendable {
    public var settings: WindowSettings {
        didSet { if settings.sites != oldValue.sites { markedSite = nil; markedURI = nil } }
    }
    /// Title, progress, loading and history, as the view's properties told them. The URI and the
    /// error page are the page session's (`ShownPage`), handed in with each event.
    private var view = PageState()
    /// The refused navigations: how many, and the most recent.
    public private(set) var refusals = RefusalLog()
    /// The zoom level the window last set.
    public private(set) var zoom: Double

    private var refusalNotice = RefusalNoticeState()
    /// A one-off message on the notice bar and when it leaves.
    private var message: (notice: WindowNotice, until: Double)?
    /// The web process ended and the page reloads by itself: the reloaded page says so once it is back.
    private var crashNoticePending = false
    /// A site was chosen from a menu: the page takes the focus once the menu has closed.
    private var focusPageWhenMenuCloses = false
    /// Ctrl+wheel not yet turned into a zoom step (touchpads scroll in small deltas).
    private var zoomScroll = 0.0
    /// The site the menus mark as current, as last told (nil: not told yet).
    private var markedSite: String?
    /// The page `markedSite` was found for: the list is searched again only for another page (a
    /// load tells the window a dozen things, each an event, on the same page).
    private var markedURI: String??
    /// What the notice bar shows and the wake-up asked for, as last told.
    private var toldNotice: WindowNotice?
    private var toldWake: Double?

    public init(settings: WindowSettings) {
        self.settings = settings
        zoom = settings.zoom
    }

    /// What the notice bar shows now, or nil when it is hidden.
    public var notice: WindowNotice? {
        if let message { return message.notice }
        return refusalNotice.shown.map { WindowNotice(text: $0.text, icon: WindowNotice.refusalIcon, refusal: $0) }
    }

    /// Title, subtitle, progress and loading, as the header bar and the bottom bar show them for `shown`.
    public func page(_ shown: ShownPage) -> PageState {
        var page = view
        page.uri = shown.uri
        page.failed = shown.isErrorPage
        return page
    }

    /// Which of the window's actions can be used now.
    public var canGoBack: Bool { view.canGoBack }
    public var canGoForward: Bool { view.canGoForward }
    public var canStop: Bool { view.isLoading }

    /// The name of the site `shown` is on, or "" when it is on none of them.
    private func currentSite(_ shown: ShownPage) -> String { settings.sites.current(for: shown.uri)?.name ?? "" }

    /// The next time `.tick` has something to do, or nil.
    public var nextWake: Double? {
        if let message { return message.until }
        return refusalNotice.nextTick
    }

    /// The commands for `event` while the view shows `page` (the page session's, read as the
    /// event comes): first what the window shows changing with it (the notice, the wake-up, the
    /// menus' mark), then what it does. In that order because doing can tell the window more at
    /// once (a load's first events), and those later commands must win.
    public mutating func handle(_ event: WindowEvent, showing page: ShownPage) -> [WindowCommand] {
        let actions = react(to: event, showing: page)
        var out: [WindowCommand] = []
        let shown = notice
        if shown != toldNotice {
            toldNotice = shown
            out.append(shown.map { .showNotice($0) } ?? .hideNotice)
        }
        if nextWake != toldWake {
            toldWake = nextWake
            out.append(.wake(at: nextWake))
        }
        if markedURI != .some(page.uri) {
            markedURI = .some(page.uri)
            let site = currentSite(page)
            if site != markedSite {
                markedSite = site
                out.append(.markSite(site))
            }
        }
        return out + actions
    }

    private mutating func react(to event: WindowEvent, showing page: ShownPage) -> [WindowCommand] {
        switch event {
        case .loadStarted: pageChanged()
        case .loadCommitted(let now):
            if crashNoticePending {
                crashNoticePending = false
                inform(tr("This page stopped working and was reloaded. Anything typed into it was lost."),
                       icon: "computer-fail-symbolic", at: now)
            }
        case .navigationBlocked(let uri, let reason, let shown, let now):
            if shown {
                pageChanged()  // the Blocked page explains it
            } else {
                if message != nil { message = nil }
                _ = refusalNotice.refused(uri, from: page.uri, at: now)
            }
            refusals.append(WindowRefusal(uri: uri, reason: reason))
        case .progress(let value): view.progress = value
        case .title(let title): view.title = title
        case .loading(let loading): view.isLoading = loading
        case .history(let back, let forward):
            view.canGoBack = back
            view.canGoForward = forward
        case .webProcessTerminated:
            // The first crash reloads at once, at a desk and in a kiosk alike: the reloaded page
            // says so, or the visitor's typing would be gone without a word.
            crashNoticePending = settings.reloadsAfterCrash
        case .refused(let what, let now):
            // A file upload the rules refuse (kiosk mode): say so rather than do nothing.
            if what == "file-chooser" { inform(tr("Files cannot be chosen on this computer."), icon: WindowNotice.refusalIcon, at: now) }
        case .historyEmpty(let direction):
            // A Blocked or error page's Back with nothing before it leads Home instead.
            return direction == .back ? [.load(homeURL)] : []
        case .noticeDismissed: dismissNotice()
        case .menuClosed:
            guard focusPageWhenMenuCloses else { return [] }
            focusPageWhenMenuCloses = false
            return [.focusPageSoon]
        case .sessionRenewed:
            view = PageState()
            dismissNotice()
            crashNoticePending = false
            zoomScroll = 0
            zoom = settings.zoom
        case .tick(let now):
            if let message, now >= message.until {
                dismissNotice()
            } else {
                _ = refusalNotice.tick(at: now)
            }
        case .intent(let intent): return perform(intent)
        }
        return []
    }

    private mutating func perform(_ intent: WindowIntent) -> [WindowCommand] {
        switch intent {
        case .back: return [.goBack, .focusPage]
        case .forward: return [.goForward, .focusPage]
        case .home(let fromButton): return fromButton ? [.load(homeURL), .focusPage] : [.load(homeURL)]
        case .openURL(let url): return [.load(upgraded(url))]
        case .reload: return [.reload]
        case .stop: return [.stop]
        case .openSite(let name, let fromMenu):
            guard let site = settings.sites.site(named: name) else {
                // An action has no answer to send back (`gapplication action` returns before it
                // runs): the journal says it, with the names that would have worked.
                return [.log(PageLog(.warning, "open-site: no site is named \"\(name)\" (the sites: \(settings.sites.sites.map(\.name).joined(separator: ", ")))",
                                     ["PORTHOLE_EVENT": "open-site-unknown", "PORTHOLE_SITE": name]))]
            }
            let load = WindowCommand.load(upgraded(site.url))
            guard fromMenu else { return [load] }
            focusPageWhenMenuCloses = true
            return [load, .focusPage]
        case .zoomIn(let current): return setZoom(ZoomLevels.larger(than: current))
        case .zoomOut(let current): return setZoom(ZoomLevels.smaller(than: current))
        case .zoomReset: return setZoom(settings.zoom)
        case .zoomScrolled(let delta, let current):
            zoomScroll += delta
            if zoomScroll <= -1 {
                zoomScroll = 0
                return setZoom(ZoomLevels.larger(than: current))
            }
            if zoomScroll >= 1 {
                zoomScroll = 0
                return setZoom(ZoomLevels.smaller(than: current))
            }
            return []
        case .find: return [.openFind]
        case .findNext: return [.findNext]
        case .findPrevious: return [.findPrevious]
        case .print: return settings.printing ? [.print] : []
        }
    }

    /// The home page, over `https://` where the settings say so.
    public var homeURL: String { upgraded(settings.homeURL) }

    private func upgraded(_ url: String) -> String { settings.httpsOnly ? URLHelpers.upgradingToHTTPS(url) : url }

    private mutating func setZoom(_ level: Double) -> [WindowCommand] {
        zoom = level
        return [.setZoom(level)]
    }

    /// Shows `text` beside `icon` for as long as a refusal notice would stay.
    private mutating func inform(_ text: String, icon: String, at now: Double) {
        dismissNotice()
        message = (WindowNotice(text: text, icon: icon), now + refusalNotice.visibleFor)
    }

    /// The view shows another page: the notice was about the old one.
    private mutating func pageChanged() {
        message = nil
        _ = refusalNotice.pageChanged()
    }

    private mutating func dismissNotice() {
        message = nil
        refusalNotice = RefusalNoticeState(visibleFor: refusalNotice.visibleFor, burstGap: refusalNotice.burstGap)
    }
}
