// What changes over the window's life: new options (a reloaded configuration), a new web view for each visitor.
import CWebKitGtk
import GLibBridge
import PortholeCore

@MainActor
extension BrowserWindow {
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
        kioskMode?.nextVisitorChanged(.optionsChanged)
    }

    /// Starts a new visitor session: a fresh web context (no cookies, storage, cache or
    /// certificate exceptions) and a new web view (no back/forward history), at the home page.
    public func startNewSession() { startNewSession(swapping: false) }

    /// Starts a new visitor session; `swapping`: with the view prepared for the next visitor
    /// (`prepareNextVisitor()`), whose home page has loaded off screen, when there is one.
    func startNewSession(swapping: Bool) {
        guard window != nil, let old = webHost, let oldWidget = old.widget else { return }
        let prepared = swapping ? nextVisitor : nil
        if prepared == nil { discardNextVisitor() }
        nextVisitor = nil
        // Before the old view goes: WebKit's clipboard owner is told it lost the selections
        // while what it refers to still exists, and the find bar lets go of its find controller.
        forgetSelections()
        madeFindBar?.detach()
        g_object_ref(UnsafeMutableRawPointer(oldWidget))
        old.dismantle()
        gtk_container_remove(overlay.cast(), oldWidget)
        g_object_unref(UnsafeMutableRawPointer(oldWidget))
        engine.renewSession()  // takes the prepared session, when there is one
        send(.sessionRenewed)
        if let prepared {
            content = prepared.content
            webHost = prepared.host
        } else {
            content = nil
            webHost = RepresentableHost(makeWebView())
        }
        let web = webHost.widget!
        if prepared != nil {
            // Uncovered: what prepareNextVisitor() took away is given back.
            if let view = webHost.coordinator.view { webkit_web_view_set_is_muted(view, 0) }
            if let gdkWindow = gtk_widget_get_window(web) { gdk_window_input_shape_combine_region(gdkWindow, nil, 0, 0) }
            gtk_overlay_set_overlay_pass_through(overlay.cast(), web, 0)
            gtk_widget_set_opacity(web, 1)
            gtk_widget_set_sensitive(web, 1)
        } else {
            gtk_container_add(overlay.cast(), web)
        }
        gtk_widget_show(web)
        gtk_widget_grab_focus(web)
        attachTouchInput(newSession: true)
        viewChanged()
        tellSpeech(.visitorSessionStarted)
        onEvent?(.visitorSessionStarted)
        guard let prepared else { return goHome() }
        // The window's settings and its event handler from now on (the content is the home page
        // already loaded: nothing reloads), then what the window missed while the view was off screen.
        webHost.update(makeWebView())
        prepared.notices.forEach(handle)
    }

    /// What the visitor copied (CLIPBOARD) or selected (PRIMARY) goes with them: a password, an
    /// address. Porthole takes both selections with nothing in them, then lets them go.
    private func forgetSelections() {
        guard let window else { return }
        for name in ["CLIPBOARD", "PRIMARY"] {
            guard let clipboard = gtk_clipboard_get_for_display(gtk_widget_get_display(window), gdk_atom_intern_static_string(name)) else { continue }
            gtk_clipboard_set_text(clipboard, "", 0)
            gtk_clipboard_clear(clipboard)
        }
    }

    /// Re-applies the options to the web view (diffed: only what changed reaches WebKit).
    func refreshWebView() { webHost?.update(makeWebView()) }

    func makeWebView() -> WebView {
        WebView(engine: engine, content: content, settings: settingsWithSwipes(), homeURL: options.homeURL, rules: options.rules, clock: options.clock,
                onEvent: { [weak self] event in self?.handle(event) },
                decide: options.decide)
    }

    /// A new web view (at start and for each visitor session): the find bar and Ctrl+scroll follow it.
    func viewChanged() {
        viewConnections.disconnectAll()
        madeFindBar?.attach(webView)
        if let webView { Accessibility.nameWebView(UnsafeMutableRawPointer(webView).assumingMemoryBound(to: GtkWidget.self)) }
        if let webView { speech?.attach(to: webView) }
        if let webView {
            // Porthole's sign-in dialog instead of WebKit's; nothing is remembered in a kiosk or
            // with ephemeral data (and nothing is ever saved to disk). The user name kept for a
            // retry belongs to this web view: the next visitor's view starts with none.
            let coordinator = webHost.coordinator
            let memory = SignInDialog.Memory { [weak coordinator] in coordinator?.signInWithdrawn() }
            viewConnections.connect(UnsafeMutableRawPointer(webView), "authenticate", .pointerReturningBool { [unowned self] request in
                guard let request, let window = self.window else { return false }
                return SignInDialog.handle(request.assumingMemoryBound(to: WebKitAuthenticationRequest.self), over: window,
                                           remembers: self.options.kiosk == nil && webkit_website_data_manager_is_ephemeral(self.engine.dataManager) == 0,
                                           memory: memory)
            })
        }
        if let webView, let linkPreview {
            linkPreview.show(nil)
            linkPreview.watch(webView, connections: viewConnections) { [unowned self] url in
                self.options.decide(PolicyRequest(url: url, kind: .mainFrame)).isAllowed
            }
        }
        connectZoomScroll()
    }

    /// The window is gone: everything it holds is let go, in the order GTK needs.
    func windowDestroyed() {
        pendingRender?.cancel()
        pendingRender = nil
        wakeUp.cancel()
        kioskMode?.teardown()
        kioskMode = nil
        speech?.teardown()
        speech = nil
        detachTouchInput()
        stopFollowingSwipeDevices()
        zoomIndicator.release()
        madeFindBar?.release()
        primaryMenu.release()
        connections.disconnectAll()
        viewConnections.disconnectAll()
        discardNextVisitor()
        webHost?.dismantle()
        actions.values.forEach { $0.release() }
        actions.removeAll()
        siteSearchMenu?.release()
        siteMenu.release()
        windowOwner.release()
        onClose(self)
    }
}
