// The browser window: header bar (Back, Forward, title, Open), the web view, and a bottom bar
// (progress, refresh/stop); in kiosk mode full screen with a smaller bottom bar. An adapter:
// WebView events and the person's actions go into Core's WindowSession, its state and commands
// come back out as GTK and WebKit calls.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// What a window needs to know from the configuration.
public struct BrowserOptions {
    public var sites: SiteList
    public var settings: WebViewSettings
    /// Decides every navigation; the site policy plugs in here.
    public var decide: @Sendable (PolicyRequest) -> PolicyDecision
    /// Load `http://` sites and typed URLs over `https://`.
    public var httpsOnly = false
    /// What pages may do: context menu, printing, permissions, certificate exceptions, recovery.
    public var rules = BrowsingRules()
    /// Kiosk mode, or nil for the desktop browser. Fixed for the window's life: a configuration
    /// reload does not turn a kiosk into a desktop browser or back.
    public var kiosk: KioskSettings?
    /// The on-screen keyboard, its mode resolved for kiosk or desk; off unless set.
    public var keyboard = KeyboardSettings(mode: .off)
    /// Whether two fingers (touchscreen or touchpad pinch) zoom the page.
    public var pinchZoom = true
    /// Where the keyboard's `auto` mode reads the input devices from; nil: GDK's default seat.
    public var inputDevices: (@MainActor () -> any InputDeviceSource)?
    /// `swipe-navigation=auto`: the window turns `settings.backForwardGestures` on while a
    /// touchpad or touchscreen is connected, instead of taking it as given.
    public var swipesFollowDevices = false

    public init(sites: SiteList, settings: WebViewSettings = WebViewSettings(),
                decide: @escaping @Sendable (PolicyRequest) -> PolicyDecision) {
        self.sites = sites
        self.settings = settings
        self.decide = decide
    }

    public var homeURL: String { sites.home?.url ?? PortholePage.startURL }
}

@MainActor
public final class BrowserWindow {
    /// Accelerators for the window's actions, set once per application.
    public static let accelerators: [(action: String, keys: [String])] = [
        ("win.back", ["<Alt>Left", "Back"]),
        ("win.forward", ["<Alt>Right", "Forward"]),
        ("win.reload", ["F5", "<Control>r", "Reload"]),
        ("win.stop", ["Escape", "Stop"]),
        ("win.home", ["<Alt>Home", "HomePage"]),
        ("win.zoom-in", ["<Control>plus", "<Control>equal", "<Control>KP_Add", "ZoomIn"]),
        ("win.zoom-out", ["<Control>minus", "<Control>KP_Subtract", "ZoomOut"]),
        ("win.zoom-reset", ["<Control>0", "<Control>KP_0"]),
        ("win.find", ["<Control>f", "Find"]),
        ("win.find-next", ["<Control>g", "F3"]),
        ("win.find-previous", ["<Control><Shift>g", "<Shift>F3"]),
        ("win.print", ["<Control>p"]),
        ("win.shortcuts", ["<Control>question", "<Control>F1"]),
        ("app.quit", ["<Control>q"]),
    ]

    /// Installs the accelerators; in kiosk mode (`kiosk` given) only those of the shortcuts the
    /// kiosk keeps, and removes the others.
    public static func installAccelerators(on application: UnsafeMutablePointer<GtkApplication>, kiosk: KioskSettings? = nil) {
        let filter = kiosk.map { KioskKeyFilter(shortcuts: $0.shortcuts) }
        for (action, allKeys) in accelerators {
            let keys = filter.map { $0.keepsAccelerator(forAction: action) ? allKeys : [] } ?? allKeys
            var cStrings = keys.map { strdup($0) } + [nil]
            cStrings.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<gchar>?.self, capacity: buffer.count) {
                    gtk_application_set_accels_for_action(application, action, $0)
                }
            }
            cStrings.forEach { free($0) }
        }
    }

    public private(set) var options: BrowserOptions
    /// What the window shows and decides (title, progress, actions, notice, zoom).
    public private(set) var session: WindowSession
    /// The page as the header bar and the bottom bar show it.
    public var state: PageState { session.page }
    /// The most recent refused navigations (newest last, at most 50), for status and tests.
    public var refusals: [WindowRefusal] { session.refusals }
    /// The session's next `.tick`.
    private var wakeUp: ScheduledSource?

    private let engine: BrowserEngine
    private let windowOwner: ObjectOwner
    private let connections = SignalConnections()
    /// Connections on the current web view, replaced with it at each visitor session.
    private let viewConnections = SignalConnections()
    private var webHost: RepresentableHost<WebView>!
    private var actions: [String: SimpleAction] = [:]
    private let siteMenu: ObjectOwner
    /// The Open menu for long site lists (see `SiteSearch`), in place of `siteMenu`.
    private var siteSearchMenu: SiteSearchMenu?
    private var content: WebContent?
    private var nextContentID: UInt64 = 1
    private let onClose: @MainActor (BrowserWindow) -> Void
    /// Kiosk mode's behaviour (full screen, keys, visitor sessions, the screen); nil at a desk.
    public private(set) var kiosk: KioskController?
    /// The on-screen keyboard; nil when its mode is off.
    public private(set) var keyboard: OnScreenKeyboard?
    var pinchGuard: PinchGuard?
    /// The devices `swipe-navigation=auto` follows; nil until it is asked for.
    var swipeDevices: (any InputDeviceSource)?
    /// Told every WebView event after the window has handled it (the service notifier waits
    /// for the first loaded page).
    public var onEvent: (@MainActor (WebViewEvent) -> Void)?

    // Widgets, owned by the window's widget tree.
    private let header: UnsafeMutablePointer<GtkWidget>
    private let progressBar: UnsafeMutablePointer<GtkWidget>
    private let refreshButton: UnsafeMutablePointer<GtkWidget>
    private let refreshIcon: UnsafeMutablePointer<GtkWidget>
    private let openButton: UnsafeMutablePointer<GtkWidget>
    /// Kiosk mode's Sites button in the bottom bar (nil at a desk).
    private var sitesButton: UnsafeMutablePointer<GtkWidget>?
    private let bottomBar: UnsafeMutablePointer<GtkWidget>
    /// Holds the web view, with the refusal notice and the zoom level above it.
    let overlay: UnsafeMutablePointer<GtkWidget>
    /// Holds everything in the window (page, keyboard, bottom bar), with kiosk mode's idle
    /// warning above it: the warning dims the whole window, not the page only.
    let windowOverlay: UnsafeMutablePointer<GtkWidget>
    private var notice: RefusalNoticeBar!
    private var zoomIndicator: ZoomIndicator!
    /// The hovered link's address and whether it is on the list (desk only).
    private var linkPreview: LinkPreviewLabel?
    /// The find bar, made the first time it is wanted (Ctrl+F): most visitors never open it, and
    /// the window built before the first load is 3 ms quicker without it (measured at start-up).
    private var madeFindBar: FindBar?
    /// The box the find bar goes at the top of, above the page.
    private var contentBox: UnsafeMutablePointer<GtkWidget>?
    private let primaryMenu = PrimaryMenu()
    private let menuButton: UnsafeMutablePointer<GtkWidget>

    // What was last put on screen, so render() touches GTK only for changes.
    private var appliedTitle: String?
    private var appliedSubtitle: String??
    private var appliedProgress: Double??
    private var appliedLoading: Bool?
    /// The render `scheduleRender` asked for, until it runs.
    private var pendingRender: FrameTick?

    /// A window of `application`; with none, a window to `attach(to:)` one later (Porthole builds
    /// its window and starts the first load before GApplication has registered on D-Bus).
    public init(application: UnsafeMutablePointer<GtkApplication>?, engine: BrowserEngine, options: BrowserOptions,
                onClose: @escaping @MainActor (BrowserWindow) -> Void = { _ in }) {
        ExternalHandoff.close()
        self.engine = engine
        self.options = options
        self.onClose = onClose
        session = WindowSession(settings: WindowSettings(options))
        let window = application.map { gtk_application_window_new($0)! }
            ?? UnsafeMutableRawPointer(g_object_new_with_properties(gtk_application_window_get_type(), 0, nil, nil)!)
                .assumingMemoryBound(to: GtkWidget.self)
        windowOwner = ObjectOwner(retaining: UnsafeMutableRawPointer(window))
        siteMenu = ObjectOwner(adopting: UnsafeMutableRawPointer(g_menu_new()))

        header = gtk_header_bar_new()
        progressBar = gtk_progress_bar_new()
        refreshIcon = gtk_image_new_from_icon_name("view-refresh-symbolic", GTK_ICON_SIZE_BUTTON)
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
            if let kiosk = self.kiosk, kiosk.refusesClose() { return true }
            self.webHost.coordinator.stop()  // closing the window stops any load in progress
            return false
        })
        connections.connect(UnsafeMutableRawPointer(window), "destroy", .plain { [unowned self] in self.windowDestroyed() })
        if let settings = options.kiosk {
            kiosk = KioskController(browser: self, settings: settings)
        }
        render()
    }

    public var window: UnsafeMutablePointer<GtkWidget>? { windowOwner.typed() }
    public var webView: UnsafeMutablePointer<WebKitWebView>? { webHost?.coordinator.view }
    public var coordinator: WebViewCoordinator { webHost.coordinator }

    // What the chrome shows, read back from GTK (for tests and accessibility checks).
    public var headerTitle: String? { gtk_header_bar_get_title(header.cast()).map { String(cString: $0) } }
    public var headerSubtitle: String? { gtk_header_bar_get_subtitle(header.cast()).map { String(cString: $0) } }
    /// The progress bar's fraction: the load's progress while loading, 0 (empty) when done.
    public var progressFraction: Double { gtk_progress_bar_get_fraction(progressBar.cast()) }
    /// The progress bar itself (shown only while a page loads).
    public var progressWidget: UnsafeMutablePointer<GtkWidget> { progressBar }
    public var openMenuButton: UnsafeMutablePointer<GtkWidget> { openButton }
    /// Kiosk mode's Sites button (nil at a desk; hidden when `[Kiosk] site-menu=` says so).
    public var kioskSitesButton: UnsafeMutablePointer<GtkWidget>? { sitesButton }
    public var headerBar: UnsafeMutablePointer<GtkWidget> { header }
    public var toolbar: UnsafeMutablePointer<GtkWidget> { bottomBar }
    public var refreshStopButton: UnsafeMutablePointer<GtkWidget> { refreshButton }
    /// The refusal notice's text while it shows (nil when hidden).
    public var refusalNoticeText: String? { notice.isVisible ? session.notice?.refusal?.text : nil }
    /// Whatever the notice bar says while it shows (a refusal, a reloaded page), else nil.
    public var noticeText: String? { notice.shownText }
    /// The icon beside the notice while it shows, else nil.
    public var noticeIconName: String? { notice.isVisible ? notice.iconName : nil }
    /// The action the refresh button triggers now: `win.reload`, or `win.stop` while loading.
    public var refreshButtonAction: String? {
        gtk_actionable_get_action_name(OpaquePointer(refreshButton)).map { String(cString: $0) }
    }

    // MARK: Commands

    public func show() {
        guard let window else { return }
        kiosk?.prepareToShow()  // full screen from the first frame
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

    /// Applies new options (a reloaded configuration): the menu, the settings, the policy.
    public func update(options: BrowserOptions) {
        let sitesChanged = options.sites != self.options.sites
        var options = options
        options.kiosk = self.options.kiosk
        options.keyboard = self.options.keyboard  // made with the window, like kiosk mode
        self.options = options
        session.settings = WindowSettings(options)
        if sitesChanged { rebuildSiteMenu() }
        followSwipeDevices()
        engine.pdfViewerStyle.apply(printing: options.rules.printing)
        webHost.update(makeWebView())
        applyPinchZoom()
    }

    public func close() { if let window { gtk_window_close(window.cast()) } }

    /// Starts a new visitor session: a fresh web context (no cookies, storage, cache or
    /// certificate exceptions) and a new web view (no back/forward history), at the home page.
    public func startNewSession() {
        guard window != nil, let old = webHost, let oldWidget = old.widget else { return }
        g_object_ref(UnsafeMutableRawPointer(oldWidget))
        old.dismantle()
        gtk_container_remove(overlay.cast(), oldWidget)
        g_object_unref(UnsafeMutableRawPointer(oldWidget))
        engine.renewSession()
        content = nil
        send(.sessionRenewed)
        webHost = RepresentableHost(makeWebView())
        let web = webHost.widget!
        gtk_container_add(overlay.cast(), web)
        gtk_widget_show(web)
        gtk_widget_grab_focus(web)
        attachTouchInput(newSession: true)
        madeFindBar?.close()  // GtkSearchBar empties its entry as it closes
        viewChanged()
        onEvent?(.visitorSessionStarted)
        goHome()
    }

    /// The window's action by name (without the `win.` prefix).
    public func action(_ name: String) -> SimpleAction? { actions[name] }

    // MARK: Building

    /// Re-applies the options to the web view (diffed: only what changed reaches WebKit).
    func refreshWebView() { webHost?.update(makeWebView()) }

    /// The find bar, made and put above the page on first use.
    private var findBar: FindBar {
        if let madeFindBar { return madeFindBar }
        let bar = FindBar(connections: connections)
        bar.onClose = { [unowned self] in self.focusPage() }
        if let contentBox {
            gtk_box_pack_start(contentBox.cast(), bar.bar, 0, 0, 0)
            gtk_box_reorder_child(contentBox.cast(), bar.bar, 0)
            gtk_widget_show_all(bar.bar)
        }
        bar.attach(webView)
        madeFindBar = bar
        return bar
    }

    private func makeWebView() -> WebView {
        WebView(engine: engine, content: content, settings: settingsWithSwipes(), homeURL: options.homeURL, rules: options.rules,
                onEvent: { [weak self] event in self?.handle(event) },
                decide: options.decide)
    }

    private func buildChrome(_ window: UnsafeMutablePointer<GtkWidget>) {
        gtk_window_set_default_size(window.cast(), 1024, 700)
        gtk_window_set_icon_name(window.cast(), "dev.porthole.Porthole")
        gtk_header_bar_set_show_close_button(header.cast(), 1)
        gtk_header_bar_set_has_subtitle(header.cast(), 1)
        gtk_window_set_titlebar(window.cast(), header)

        let navigation = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_style_context_add_class(gtk_widget_get_style_context(navigation), "linked")
        let back = iconButton("go-previous-symbolic", name: tr("Back"), tooltip: tr("Back (Alt+Left)"), action: "win.back")
        let forward = iconButton("go-next-symbolic", name: tr("Forward"), tooltip: tr("Forward (Alt+Right)"), action: "win.forward")
        gtk_container_add(navigation.cast(), back)
        gtk_container_add(navigation.cast(), forward)
        gtk_header_bar_pack_start(header.cast(), navigation)

        let openContent = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
        gtk_container_add(openContent.cast(), gtk_label_new(trc("header bar button", "Open")))
        gtk_container_add(openContent.cast(), gtk_image_new_from_icon_name("pan-down-symbolic", GTK_ICON_SIZE_BUTTON))
        if let old = gtk_bin_get_child(openButton.cast()) { gtk_container_remove(openButton.cast(), old) }
        gtk_container_add(openButton.cast(), openContent)
        gtk_widget_set_tooltip_text(openButton, tr("Open an approved site"))
        gtk_menu_button_set_menu_model(openButton.cast(), siteMenu.typed())
        Accessibility.setName(openButton, tr("Open"))
        if let popover = gtk_menu_button_get_popover(openButton.cast()) {
            connections.connect(UnsafeMutableRawPointer(popover), "closed", .plain { [unowned self] in self.send(.menuClosed) })
        }
        gtk_button_set_image(menuButton.cast(), gtk_image_new_from_icon_name("open-menu-symbolic", GTK_ICON_SIZE_BUTTON))
        gtk_widget_set_tooltip_text(menuButton, tr("Main menu"))
        Accessibility.setName(menuButton, tr("Main menu"))
        gtk_menu_button_set_menu_model(menuButton.cast(), primaryMenu.model.typed())
        if let popover = gtk_menu_button_get_popover(menuButton.cast()) {
            connections.connect(UnsafeMutableRawPointer(popover), "closed", .plain { [unowned self] in self.send(.menuClosed) })
        }
        gtk_header_bar_pack_end(header.cast(), menuButton)
        gtk_header_bar_pack_end(header.cast(), openButton)
        if options.kiosk != nil {
            // Kiosk mode: no title bar at all, so nothing to close, move or un-fullscreen.
            gtk_widget_set_no_show_all(header, 1)
            gtk_window_set_decorated(window.cast(), 0)
        }
    }

    private func makeBottomBar() -> UnsafeMutablePointer<GtkWidget> {
        let bar = bottomBar
        if let kiosk = options.kiosk {
            // The header bar is gone: Back, Home and the site chooser move down here, sized for fingers.
            for button in [iconButton("go-previous-symbolic", name: tr("Back"), action: "win.back", size: GTK_ICON_SIZE_LARGE_TOOLBAR),
                           iconButton("go-home-symbolic", name: tr("Home"), action: "win.home", size: GTK_ICON_SIZE_LARGE_TOOLBAR),
                           makeKioskSitesButton()] {
                gtk_widget_set_size_request(button, Self.touchSize, Self.touchSize)
                gtk_action_bar_pack_start(bar.cast(), button)
            }
            if !kiosk.toolbar { gtk_widget_set_no_show_all(bar, 1) }
        }
        // Only while a page loads (render shows it), across the bar's free width: an empty trough
        // at rest looks like a dead slider.
        gtk_widget_set_hexpand(progressBar, 1)
        gtk_widget_set_valign(progressBar, GTK_ALIGN_CENTER)
        gtk_widget_set_no_show_all(progressBar, 1)
        gtk_action_bar_pack_start(bar.cast(), progressBar)
        gtk_button_set_image(refreshButton.cast(), refreshIcon)
        gtk_actionable_set_action_name(OpaquePointer(refreshButton), "win.reload")
        gtk_widget_set_tooltip_text(refreshButton, tr("Reload (F5)"))
        Accessibility.setName(refreshButton, tr("Reload"))
        gtk_action_bar_pack_end(bar.cast(), refreshButton)
        return bar
    }

    /// The smallest side of a control meant for a finger, in pixels (GNOME's touch target).
    static let touchSize: Int32 = 48

    /// The kiosk's site chooser: the Open menu's sites, for a window without a header bar.
    /// Shown as `[Kiosk] site-menu=` says (rebuildSiteMenu keeps it in step with the sites).
    private func makeKioskSitesButton() -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_menu_button_new()!
        let content = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_container_add(content.cast(), gtk_image_new_from_icon_name("view-list-symbolic", GTK_ICON_SIZE_LARGE_TOOLBAR))
        gtk_container_add(content.cast(), gtk_label_new(tr("Sites")))
        if let old = gtk_bin_get_child(button.cast()) { gtk_container_remove(button.cast(), old) }
        gtk_container_add(button.cast(), content)
        gtk_widget_show_all(content)  // the button itself is shown by rebuildSiteMenu
        gtk_widget_set_tooltip_text(button, tr("Choose a site"))
        Accessibility.setName(button, tr("Sites"))
        gtk_widget_set_focus_on_click(button, 0)
        gtk_menu_button_set_direction(button.cast(), GTK_ARROW_UP)
        gtk_menu_button_set_menu_model(button.cast(), siteMenu.typed())
        if let popover = gtk_menu_button_get_popover(button.cast()) {
            let widget = UnsafeMutablePointer<GtkWidget>(OpaquePointer(popover))
            TouchStyle.install()
            gtk_style_context_add_class(gtk_widget_get_style_context(widget), TouchStyle.menuClass)
            connections.connect(UnsafeMutableRawPointer(popover), "closed", .plain { [unowned self] in self.send(.menuClosed) })
        }
        gtk_widget_set_no_show_all(button, 1)  // shown by rebuildSiteMenu when there is a choice
        sitesButton = button
        return button
    }

    /// A button showing only an icon: `name` is what screen readers say, `tooltip` adds the shortcut.
    private func iconButton(_ icon: String, name: String, tooltip: String? = nil, action: String,
                            size: GtkIconSize = GTK_ICON_SIZE_BUTTON) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_button_new_from_icon_name(icon, size)!
        gtk_widget_set_tooltip_text(button, tooltip ?? name)
        Accessibility.setName(button, name)
        // A click leaves the keyboard focus where it was (on the page), so keys keep scrolling it.
        gtk_widget_set_focus_on_click(button, 0)
        gtk_actionable_set_action_name(OpaquePointer(button), action)
        return button
    }

    private func buildActions(_ window: UnsafeMutablePointer<GtkWidget>) {
        let map = UnsafeMutableRawPointer(window)
        let plain: [(String, @MainActor () -> Void)] = [
            ("back", { [unowned self] in self.send(.intent(.back)) }),
            ("forward", { [unowned self] in self.send(.intent(.forward)) }),
            ("reload", { [unowned self] in self.send(.intent(.reload)) }),
            ("stop", { [unowned self] in self.send(.intent(.stop)) }),
            ("home", { [unowned self] in self.send(.intent(.home(fromButton: true))) }),
            ("close", { [unowned self] in self.close() }),
        ]
        let desk: [(String, @MainActor () -> Void)] = [
            ("zoom-in", { [unowned self] in self.send(.intent(.zoomIn(current: self.zoomLevel))) }),
            ("zoom-out", { [unowned self] in self.send(.intent(.zoomOut(current: self.zoomLevel))) }),
            ("zoom-reset", { [unowned self] in self.send(.intent(.zoomReset)) }),
            ("find", { [unowned self] in self.send(.intent(.find)) }),
            ("find-next", { [unowned self] in self.send(.intent(.findNext)) }),
            ("find-previous", { [unowned self] in self.send(.intent(.findPrevious)) }),
            ("print", { [unowned self] in self.send(.intent(.print)) }),
            ("shortcuts", { [unowned self] in if let window = self.window { ShortcutsWindow.present(over: window) } }),
            ("about", { [unowned self] in if let window = self.window { AboutWindow.present(over: window) } }),
        ]
        for (name, handler) in plain + desk { actions[name] = SimpleAction(name: name, in: map, handler) }
        // Its state is the current site's name: the Open and Sites menus mark that one.
        actions["open-site"] = SimpleAction(name: "open-site", stringParameterIn: map, state: "") { [unowned self] site in
            self.send(.intent(.openSite(site, fromMenu: true)))
        }
    }

    // MARK: Zoom, find, print

    /// The page's zoom level (1.0 is 100 %).
    public var zoomLevel: Double { webView.map { webkit_web_view_get_zoom_level($0) } ?? options.settings.zoom }
    /// The zoom level shown over the page while it changes, else nil.
    public var zoomIndicatorText: String? { zoomIndicator.text }
    /// The link preview's line while it shows (desk), else nil.
    public var linkPreviewText: String? { linkPreview?.text }

    /// Sets the page's zoom and shows the level over the page.
    private func applyZoom(_ level: Double) {
        guard let webView else { return }
        webkit_web_view_set_zoom_level(webView, level)
        zoomIndicator.show(level)
        primaryMenu.setZoom(level)
    }

    /// The sign-in dialog's user and password entries while it is open (tests fill them in).
    public var signInEntries: (user: UnsafeMutablePointer<GtkWidget>, password: UnsafeMutablePointer<GtkWidget>)? {
        SignInDialog.current.map { ($0.userEntry, $0.passwordEntry) }
    }

    /// The find bar's state, for tests and the window's own checks.
    public var isFindBarOpen: Bool { madeFindBar?.isOpen ?? false }
    public var findMatchCount: Int? { madeFindBar?.matchCount }
    public var findEntry: UnsafeMutablePointer<GtkWidget> { findBar.searchEntry }
    public var primaryMenuButton: UnsafeMutablePointer<GtkWidget> { menuButton }

    /// Prints the page with GTK's print dialog (the session asks only where the rules allow it).
    private func print() {
        guard let webView, let window else { return }
        let operation = webkit_print_operation_new(webView)
        webkit_print_operation_run_dialog(operation, window.cast())
        g_object_unref(UnsafeMutableRawPointer(operation))
    }

    /// A new web view (at start and for each visitor session): the find bar and Ctrl+scroll follow it.
    private func viewChanged() {
        viewConnections.disconnectAll()
        madeFindBar?.attach(webView)
        if let webView {
            // Porthole's sign-in dialog instead of WebKit's; nothing is remembered in a kiosk or
            // with ephemeral data (and nothing is ever saved to disk).
            viewConnections.connect(UnsafeMutableRawPointer(webView), "authenticate", .pointerReturningBool { [unowned self] request in
                guard let request, let window = self.window else { return false }
                return SignInDialog.handle(request.assumingMemoryBound(to: WebKitAuthenticationRequest.self), over: window,
                                           remembers: self.options.kiosk == nil && webkit_website_data_manager_is_ephemeral(self.engine.dataManager) == 0)
            })
        }
        if let webView, let linkPreview {
            linkPreview.show(nil)
            linkPreview.watch(webView, connections: viewConnections) { [unowned self] url in
                self.options.decide(PolicyRequest(url: url, kind: .mainFrame)).isAllowed
            }
        }
        guard let web = webHost.widget, options.kiosk.map({ $0.shortcuts.contains(.zoom) }) ?? true else { return }
        // Before WebKit's own handler: Ctrl+wheel zooms instead of scrolling.
        viewConnections.connect(UnsafeMutableRawPointer(web), "scroll-event", .pointerReturningBool { [unowned self] event in
            guard let scroll = event?.assumingMemoryBound(to: GdkEventScroll.self).pointee,
                  scroll.state & GDK_CONTROL_MASK.rawValue != 0 else { return false }
            self.zoomByScrolling(scroll)
            return true
        })
    }

    private func zoomByScrolling(_ scroll: GdkEventScroll) {
        let delta: Double
        switch scroll.direction {
        case GDK_SCROLL_UP: delta = -1
        case GDK_SCROLL_DOWN: delta = 1
        case GDK_SCROLL_SMOOTH: delta = scroll.delta_y
        default: return
        }
        send(.intent(.zoomScrolled(delta: delta, current: zoomLevel)))
    }

    /// The button the site menu hangs from: the header bar's Open at a desk, the bottom bar's
    /// Sites in kiosk mode (which has no header bar).
    private var siteMenuButton: UnsafeMutablePointer<GtkWidget> { sitesButton ?? openButton }

    private func rebuildSiteMenu() {
        let menu = siteMenu.opaque
        let button = siteMenuButton
        g_menu_remove_all(menu)
        if let sitesButton, let kiosk = options.kiosk { gtk_widget_set_visible(sitesButton, kiosk.siteMenu.shows(for: options.sites) ? 1 : 0) }
        if options.sites.sites.count >= SiteSearch.searchableFrom {
            if siteSearchMenu == nil {
                let search = SiteSearchMenu(button: button, touch: options.kiosk != nil)
                connections.connect(search.popoverObject, "closed", .plain { [unowned self] in self.send(.menuClosed) })
                siteSearchMenu = search
            }
            siteSearchMenu?.show(options.sites.sites)
            gtk_widget_set_sensitive(button, 1)
            return
        }
        if let search = siteSearchMenu {
            siteSearchMenu = nil
            gtk_menu_button_set_popover(button.cast(), nil)
            search.release()
            gtk_menu_button_set_menu_model(button.cast(), siteMenu.typed())
            if let popover = gtk_menu_button_get_popover(button.cast()) {
                if options.kiosk != nil { gtk_style_context_add_class(gtk_widget_get_style_context(UnsafeMutablePointer<GtkWidget>(OpaquePointer(popover))), TouchStyle.menuClass) }
                connections.connect(UnsafeMutableRawPointer(popover), "closed", .plain { [unowned self] in self.send(.menuClosed) })
            }
        }
        for site in options.sites.sites {
            let item = g_menu_item_new(site.name, nil)
            g_menu_item_set_action_and_target_value(item, "win.open-site", g_variant_new_string(site.name))
            g_menu_append_item(menu, item)
            g_object_unref(UnsafeMutableRawPointer(item))
        }
        gtk_widget_set_sensitive(openButton, options.sites.isEmpty ? 0 : 1)
    }

    /// Gives the keyboard focus to the page, so Page Down, Space and the arrows scroll it.
    public func focusPage() {
        if let web = webHost?.widget { gtk_widget_grab_focus(web) }
    }


    // MARK: Events → state → screen

    private func handle(_ event: WebViewEvent) {
        if let windowEvent = WindowEvent(event, at: Self.now()) { send(windowEvent) }
        // Read after every event rather than only on .history: WebKit changes these with the
        // back-forward list, which a load can change before or after it tells its own events.
        send(.history(canGoBack: webHost?.coordinator.canGoBack ?? false, canGoForward: webHost?.coordinator.canGoForward ?? false))
        scheduleRender()
        onEvent?(event)
    }

    /// One event into the session; its commands out to GTK and WebKit.
    func send(_ event: WindowEvent) {
        session.handle(event).forEach(perform)
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
        case .showNotice(let shown): notice.show(shown)
        case .hideNotice: notice.hide()
        case .markSite(let name): actions["open-site"]?.stringState = name
        case .wake(let time):
            wakeUp?.cancel()
            wakeUp = time.map { time in
                MainLoop.after(milliseconds: Countdown.milliseconds(max(0, time - Self.now()))) { [weak self] in
                    self?.wakeUp = nil
                    self?.send(.tick(Self.now()))
                }
            }
        case .log(let entry):
            let level: Log.Level = entry.level == .warning ? .warning : entry.level == .message ? .message : .info
            Log.write(level, entry.text, fieldList: entry.fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }

    private static func now() -> Double { Double(g_get_monotonic_time()) / 1_000_000 }

    /// Whether the chrome shows the current state (no render is waiting for the next frame).
    public var isRendered: Bool { pendingRender == nil }

    /// Renders at the next frame GTK draws: a load tells its progress, title, address, history
    /// and loading state in separate messages, and each change to the header or the bar costs a
    /// layout and a paint of the window. Made once per frame (what can be seen), a fast navigation
    /// costs one of each instead of one per message (issue 14: a third less CPU in the UI process
    /// over a 1,000-link chain). Before the window is shown, at once.
    private func scheduleRender() {
        guard pendingRender == nil else { return }
        guard let window, gtk_widget_get_mapped(window) != 0 else { return render() }
        pendingRender = FrameTick(window) { [weak self] in
            self?.pendingRender = nil
            self?.render()
        }
    }

    private func render() {
        guard window != nil else { return }
        let title = state.headerTitle
        if title != appliedTitle {
            appliedTitle = title
            gtk_header_bar_set_title(header.cast(), title)
        }
        let subtitle = state.headerSubtitle
        if appliedSubtitle == nil || subtitle != appliedSubtitle! {
            appliedSubtitle = .some(subtitle)
            gtk_header_bar_set_subtitle(header.cast(), subtitle)
        }
        let progress = state.visibleProgress
        if appliedProgress == nil || progress != appliedProgress! {
            appliedProgress = .some(progress)
            gtk_progress_bar_set_fraction(progressBar.cast(), progress ?? 0)
            gtk_widget_set_visible(progressBar, state.showsProgress ? 1 : 0)
        }
        if state.isLoading != appliedLoading {
            appliedLoading = state.isLoading
            gtk_image_set_from_icon_name(refreshIcon.cast(), state.isLoading ? "process-stop-symbolic" : "view-refresh-symbolic", GTK_ICON_SIZE_BUTTON)
            gtk_actionable_set_action_name(OpaquePointer(refreshButton), state.isLoading ? "win.stop" : "win.reload")
            gtk_widget_set_tooltip_text(refreshButton, state.isLoading ? tr("Stop (Escape)") : tr("Reload (F5)"))
            Accessibility.setName(refreshButton, state.isLoading ? tr("Stop") : tr("Reload"))
        }
        updateActions()
    }

    /// What the keyboard and the buttons can do follows the state at once (only drawing waits
    /// for the frame).
    private func updateActions() {
        actions["back"]?.isEnabled = session.canGoBack
        actions["forward"]?.isEnabled = session.canGoForward
        actions["stop"]?.isEnabled = session.canStop
    }

    private func windowDestroyed() {
        pendingRender?.cancel()
        pendingRender = nil
        wakeUp?.cancel()
        wakeUp = nil
        kiosk?.teardown()
        kiosk = nil
        detachTouchInput()
        stopFollowingSwipeDevices()
        zoomIndicator.release()
        madeFindBar?.release()
        primaryMenu.release()
        connections.disconnectAll()
        viewConnections.disconnectAll()
        webHost?.dismantle()
        actions.values.forEach { $0.release() }
        actions.removeAll()
        siteSearchMenu?.release()
        siteMenu.release()
        windowOwner.release()
        onClose(self)
    }
}

extension WindowSettings {
    /// What the window session needs from the window's options.
    init(_ options: BrowserOptions) {
        self.init(sites: options.sites, homeURL: options.homeURL)
        httpsOnly = options.httpsOnly
        reloadsAfterCrash = options.rules.reloadsAfterCrash
        printing = options.rules.printing
        zoom = options.settings.zoom
    }
}

extension WindowEvent {
    /// The window's event for a view event at `now`, or nil when the window has nothing to do with it.
    init?(_ event: WebViewEvent, at now: Double) {
        switch event {
        case .loadStarted: self = .loadStarted
        case .loadCommitted(let uri): self = .loadCommitted(uri: uri, at: now)
        case .loadFailed: self = .loadFailed
        case .navigationBlocked(let uri, let reason, let shown): self = .navigationBlocked(uri: uri, reason: reason, shown: shown, at: now)
        case .progress(let value): self = .progress(value)
        case .title(let title): self = .title(title)
        case .uri(let uri): self = .uri(uri)
        case .loading(let loading): self = .loading(loading)
        case .history(let back, let forward): self = .history(canGoBack: back, canGoForward: forward)
        case .historyEmpty(let direction): self = .historyEmpty(direction)
        case .webProcessTerminated: self = .webProcessTerminated
        case .refused(let what): self = .refused(what, at: now)
        case .loadFinished, .permissionAnswered, .webProcessHung, .visitorSessionStarted: return nil
        }
    }
}

/// Finger-sized menu items for the kiosk's menus. A provider on one widget does not reach its
/// children in GTK 3, so this one is on the screen, matching only menus with its class.
@MainActor
enum TouchStyle {
    static let menuClass = "porthole-touch-menu"
    private static var provider: ObjectOwner?

    static func install() {
        guard provider == nil, let screen = gdk_screen_get_default() else { return }
        let css = ObjectOwner(adopting: UnsafeMutableRawPointer(gtk_css_provider_new()))
        gtk_css_provider_load_from_data(css.typed(), "popover.\(menuClass) modelbutton { min-height: 44px; padding: 4px 20px; font-size: 1.2em; }", -1, nil)
        gtk_style_context_add_provider_for_screen(screen, OpaquePointer(css.pointer), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        provider = css  // for the life of the process, as the screen keeps it
    }
}

