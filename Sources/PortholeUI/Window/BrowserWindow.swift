// The browser window: header bar (Back, Forward, title, Open), the web view, and a bottom bar
// (progress, refresh/stop); in kiosk mode full screen with a smaller bottom bar. An adapter:
// WebView events and the person's actions go into Core's WindowSession, its state and commands
// come back out as GTK and WebKit calls.
import CWebKitGtk
import GLibBridge
import PortholeCore

@MainActor
public final class BrowserWindow {
    public internal(set) var options: BrowserOptions
    /// What the window shows and decides (title, progress, actions, notice, zoom).
    public internal(set) var session: WindowSession
    /// The page as the header bar and the bottom bar show it.
    public var state: PageState { session.page(shown) }
    /// What the view shows, as its page session has it (the one owner of the URI and the error page).
    public var shown: ShownPage { webHost?.coordinator.shown ?? ShownPage() }
    /// The most recent refused navigations (newest last, at most 50), for tests.
    public var refusals: [WindowRefusal] { session.refusals.recent }
    /// The session's next `.tick`, on the options' clock.
    let wakeUp: WakeUp

    let engine: BrowserEngine
    let windowOwner: ObjectOwner
    let connections = SignalConnections()
    /// Connections on the current web view, replaced with it at each visitor session.
    let viewConnections = SignalConnections()
    var webHost: RepresentableHost<WebView>!
    var actions: [String: SimpleAction] = [:]
    let siteMenu: ObjectOwner
    /// The Open menu for long site lists (see `SiteSearch`), in place of `siteMenu`.
    var siteSearchMenu: SiteSearchMenu?
    var content: WebContent?
    var nextContentID: UInt64 = 1
    let onClose: @MainActor (BrowserWindow) -> Void
    /// Kiosk mode's behaviour (full screen, keys, visitor sessions, the screen); nil at a desk.
    var kioskMode: (any KioskMode)?
    /// The next kiosk visitor's view, prepared off screen while the current visitor is idle.
    var nextVisitor: PreparedVisitor?
    /// The on-screen keyboard; nil when its mode is off.
    public private(set) var keyboard: OnScreenKeyboard?
    /// The read-aloud mode (off until the speech key or button turns it on).
    public internal(set) var speech: SpeechController?
    var pinchGuard: PinchGuard?
    /// Larger text's page scale (kiosk visitor controls): the page shows at the zoom level times this.
    var textScale = 1.0
    /// The devices `swipe-navigation=auto` follows; nil until it is asked for.
    var swipeDevices: (any InputDeviceSource)?
    /// Told every page notice after the window has handled it (the service notifier waits
    /// for the first loaded page).
    public var onEvent: (@MainActor (PageNotice) -> Void)?

    // Widgets, owned by the window's widget tree.
    let header: UnsafeMutablePointer<GtkWidget>
    let titleLines = HeaderTitle()
    let progressBar: UnsafeMutablePointer<GtkWidget>
    /// The progress bar, or nothing in its place (see `makeBottomBar`).
    let progressSlot: UnsafeMutablePointer<GtkWidget>
    let refreshButton: UnsafeMutablePointer<GtkWidget>
    let refreshIcons: UnsafeMutablePointer<GtkWidget>
    let openButton: UnsafeMutablePointer<GtkWidget>
    /// Kiosk mode's Sites button in the bottom bar (nil at a desk).
    var sitesButton: UnsafeMutablePointer<GtkWidget>?
    /// Kiosk mode's speech button in the bottom bar (nil at a desk).
    var speechButton: UnsafeMutablePointer<GtkWidget>?
    let bottomBar: UnsafeMutablePointer<GtkWidget>
    /// Holds the web view, with the refusal notice and the zoom level above it.
    let overlay: UnsafeMutablePointer<GtkWidget>
    /// Holds everything in the window (page, keyboard, bottom bar), with kiosk mode's idle
    /// warning above it: the warning dims the whole window, not the page only.
    let windowOverlay: UnsafeMutablePointer<GtkWidget>
    var notice: RefusalNoticeBar!
    var zoomIndicator: ZoomIndicator!
    /// The hovered link's address and whether it is on the list (desk only).
    var linkPreview: LinkPreviewLabel?
    /// The find bar, made the first time it is wanted (Ctrl+F): most visitors never open it, and
    /// the window built before the first load is 3 ms quicker without it (measured at start-up).
    var madeFindBar: FindBar?
    /// The box the find bar goes at the top of, above the page.
    var contentBox: UnsafeMutablePointer<GtkWidget>?
    let primaryMenu = PrimaryMenu()
    let menuButton: UnsafeMutablePointer<GtkWidget>

    // What was last put on screen, so render() touches GTK only for changes.
    var appliedTitle: String?
    var appliedSubtitle: String??
    var appliedProgress: Double??
    var appliedLoading: Bool?
    /// The render `scheduleRender` asked for, until it runs.
    var pendingRender: FrameTick?

    /// A window of `application`; with none, a window to `attach(to:)` one later (Porthole builds
    /// its window and starts the first load before GApplication has registered on D-Bus).
    public init(application: UnsafeMutablePointer<GtkApplication>?, engine: BrowserEngine, options: BrowserOptions,
                onClose: @escaping @MainActor (BrowserWindow) -> Void = { _ in }) {
        ExternalHandoff.close()
        self.engine = engine
        self.options = options
        self.onClose = onClose
        wakeUp = WakeUp(clock: options.clock)
        session = WindowSession(settings: WindowSettings(options))
        let window = application.map { gtk_application_window_new($0)! }
            ?? UnsafeMutableRawPointer(g_object_new_with_properties(gtk_application_window_get_type(), 0, nil, nil)!)
                .assumingMemoryBound(to: GtkWidget.self)
        windowOwner = ObjectOwner(retaining: UnsafeMutableRawPointer(window))
        siteMenu = ObjectOwner(adopting: UnsafeMutableRawPointer(g_menu_new()))

        header = gtk_header_bar_new()
        progressBar = gtk_progress_bar_new()
        progressSlot = gtk_stack_new()
        refreshIcons = gtk_stack_new()
        refreshButton = gtk_button_new()
        openButton = gtk_menu_button_new()
        bottomBar = gtk_action_bar_new()
        overlay = gtk_overlay_new()
        windowOverlay = gtk_overlay_new()
        menuButton = gtk_menu_button_new()

        buildChrome(window)
        buildActions(window)

        // The PDF viewer's Download, Open (and, where printing is refused, Print) buttons would do
        // nothing: a style sheet for the viewer's frame, shared by every view, hides them.
        engine.pdfViewerStyle.apply(printing: options.rules.printing)
        webHost = RepresentableHost(makeWebView())
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_set_vexpand(overlay, 1)
        gtk_widget_set_hexpand(overlay, 1)
        gtk_container_add(overlay.cast(), webHost.widget!)
        contentBox = box
        gtk_box_pack_start(box.cast(), overlay, 1, 1, 0)
        keyboard = OnScreenKeyboard.make(options)
        if let keyboard { gtk_box_pack_start(box.cast(), keyboard.widget, 0, 0, 0) }
        attachTouchInput(newSession: false)
        followSwipeDevices()
        gtk_box_pack_end(box.cast(), makeBottomBar(), 0, 0, 0)
        gtk_container_add(windowOverlay.cast(), box)
        gtk_container_add(window.cast(), windowOverlay)
        notice = RefusalNoticeBar(in: overlay, connections: connections) { [unowned self] in self.send(.noticeDismissed) }
        zoomIndicator = ZoomIndicator(in: overlay)
        if options.kiosk == nil { linkPreview = LinkPreviewLabel(in: overlay) }
        viewChanged()
        rebuildSiteMenu()

        connections.connect(UnsafeMutableRawPointer(window), "delete-event", .pointerReturningBool { [unowned self] _ in
            if let kiosk = self.kioskMode, kiosk.refusesClose() { return true }
            self.webHost.coordinator.stop()  // closing the window stops any load in progress
            return false
        })
        connections.connect(UnsafeMutableRawPointer(window), "destroy", .plain { [unowned self] in self.windowDestroyed() })
        if let settings = options.kiosk {
            kioskMode = makeKioskMode(settings)
        }
        attachSpeech()
        render()
    }

    public var window: UnsafeMutablePointer<GtkWidget>? { windowOwner.typed() }
    public var webView: UnsafeMutablePointer<WebKitWebView>? { webHost?.coordinator.view }
    public var coordinator: WebViewCoordinator { webHost.coordinator }

    public func show() {
        guard let window else { return }
        kioskMode?.prepareToShow()  // full screen from the first frame
        gtk_widget_show_all(window)
        render()
    }

    public func present() { if let window { gtk_window_present(window.cast()) } }

    /// Whether the window belongs to an application (built with one, or attached since).
    public var isAttached: Bool { window.map { gtk_window_get_application($0.cast()) != nil } ?? false }

    /// Makes a window built without an application one of `application`'s (after its startup).
    public func attach(to application: UnsafeMutablePointer<GtkApplication>) {
        guard let window, !isAttached else { return }
        gtk_window_set_application(window.cast(), application)
    }

    /// Loads something in the view (a URL, a file, an HTML string or raw bytes).
    public func load(_ kind: WebContent.Kind) {
        content = WebContent(id: nextContentID, kind)
        nextContentID += 1
        webHost.update(makeWebView())
    }

    public func load(url: String) { send(.intent(.openURL(url))) }
    public func goHome() { send(.intent(.home(fromButton: false))) }
    /// Opens the site named `nameOrAddress` (the application's `open-site` action).
    public func openSite(_ nameOrAddress: String) { send(.intent(.openSite(nameOrAddress, fromMenu: false))) }

    public func close() { if let window { gtk_window_close(window.cast()) } }

    /// Gives the keyboard focus to the page, so Page Down, Space and the arrows scroll it.
    public func focusPage() {
        if let web = webHost?.widget { gtk_widget_grab_focus(web) }
    }

    func handle(_ event: PageNotice) {
        if let windowEvent = WindowEvent(event, at: wakeUp.now) { send(windowEvent) }
        // Read after every event rather than only on .history: WebKit changes these with the
        // back-forward list, which a load can change before or after it tells its own events.
        send(.history(canGoBack: webHost?.coordinator.canGoBack ?? false, canGoForward: webHost?.coordinator.canGoForward ?? false))
        scheduleRender()
        tellSpeech(event)
        onEvent?(event)
    }

    /// One event into the session; its commands out to GTK and WebKit.
    func send(_ event: WindowEvent) {
        session.handle(event, showing: shown).forEach(perform)
        updateActions()
    }

    private func perform(_ command: WindowCommand) {
        switch command {
        case .goBack: webHost.coordinator.goBack()
        case .goForward: webHost.coordinator.goForward()
        // Reload retries a failed load from its URL rather than re-showing the error page.
        case .reload: webHost.coordinator.reload()
        case .stop: webHost.coordinator.stop()
        case .load(let url): load(.url(url))
        case .focusPage: focusPage()
        // The popover hands the focus back to its button as it closes; take it after that.
        case .focusPageSoon: MainLoop.idle { [weak self] in self?.focusPage() }
        case .setZoom(let level): applyZoom(level)
        case .openFind: findBar.open()
        case .findNext: findBar.next()
        case .findPrevious: findBar.previous()
        case .print: print()
        case .showNotice(let shown):
            notice.show(shown)
            speech?.announce(shown.text)
        case .hideNotice: notice.hide()
        case .markSite(let name): actions["open-site"]?.stringState = name
        case .wake(let time):
            wakeUp.set(time) { [weak self] now in self?.send(.tick(now)) }
        case .log(let entry): Log.write(entry)
        }
    }

}
