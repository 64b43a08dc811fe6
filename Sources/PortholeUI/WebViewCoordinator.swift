// Receives the WebKitWebView's signals and turns them into WebViewEvents, policy answers and
// Porthole's own pages. The one decide-policy handler and the one load-failed handler live here.
import CWebKitGtk
import GLibBridge
import PortholeCore

@MainActor
public final class WebViewCoordinator {
    /// The representable as last applied (by value: no cycle back to the window).
    var parent: WebView
    /// The view, not owned: the RepresentableHost owns the widget and outlives the connections.
    public private(set) var view: UnsafeMutablePointer<WebKitWebView>?
    var appliedContent: WebContent?
    var appliedSettings: WebViewSettings?

    /// A top-level load Porthole asked WebKit for; the next matching navigation action is it.
    private enum Expected { case load, reload, history }
    private var expectedTopLevel: Expected?
    /// The URI under which one of Porthole's pages (error, Blocked) is about to be shown.
    private var alternatePageURI: String?
    /// The last refused navigation, so a main-frame load that WebKit then abandons can be
    /// explained with the Blocked page.
    private var lastRefusal: (uri: String, reason: String)?
    /// A load asked for while one of Porthole's pages was still loading; issued when it is done.
    private var deferredContent: WebContent?

    init(parent: WebView) {
        self.parent = parent
    }

    // MARK: Commands

    public func goBack() { guard let view, webkit_web_view_can_go_back(view) != 0 else { return }; expectedTopLevel = .history; webkit_web_view_go_back(view) }
    public func goForward() { guard let view, webkit_web_view_can_go_forward(view) != 0 else { return }; expectedTopLevel = .history; webkit_web_view_go_forward(view) }
    public func reload() { guard let view else { return }; expectedTopLevel = .reload; webkit_web_view_reload(view) }
    public func stop() { if let view { webkit_web_view_stop_loading(view) } }

    public var uri: String? { view.flatMap { webkit_web_view_get_uri($0) }.map { String(cString: $0) } }
    public var title: String? { view.flatMap { webkit_web_view_get_title($0) }.map { String(cString: $0) } }
    public var isLoading: Bool { view.map { webkit_web_view_is_loading($0) != 0 } ?? false }
    public var canGoBack: Bool { view.map { webkit_web_view_can_go_back($0) != 0 } ?? false }
    public var canGoForward: Bool { view.map { webkit_web_view_can_go_forward($0) != 0 } ?? false }

    func load(_ content: WebContent) {
        guard let view else { return }
        if alternatePageURI != nil {
            // One of Porthole's pages is still being shown. WebKit may commit that page after a
            // load started now (it can run in another web process), so this load waits for it.
            deferredContent = content
            return
        }
        switch content.kind {
        case .url(let uri):
            // Decided before WebKit sees it: WebKit runs `javascript:` URLs given to load_uri
            // without a navigation decision, and fails unknown schemes before asking.
            let query = NavigationQuery(uri: uri, kind: .navigation, isRedirect: false, isUserGesture: true,
                                        isTopLevelRequest: true, sourceURI: nil)
            if case .block(let reason) = parent.decide(query) {
                refuse(uri, reason: reason, frame: "main", showPage: true)
                return
            }
            expectedTopLevel = .load
            webkit_web_view_load_uri(view, uri)
        case .html(let html, let baseURI):
            expectedTopLevel = .load
            webkit_web_view_load_html(view, html, baseURI)
        case .file(let path):
            guard let uri = URLHelpers.fileURI(forPath: path) else {
                showPage(PortholePage.error(url: path, message: "Not a usable file path.", homeURL: parent.homeURL), as: "about:blank")
                return
            }
            expectedTopLevel = .load
            webkit_web_view_load_uri(view, uri)
        case .bytes(let bytes, let mimeType, let baseURI):
            expectedTopLevel = .load
            // g_bytes_new copies, so WebKit never sees memory that is only valid in this scope.
            let gbytes = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            webkit_web_view_load_bytes(view, gbytes, mimeType, nil, baseURI)
            g_bytes_unref(gbytes)
        }
    }

    func apply(_ settings: WebViewSettings) {
        guard let view else { return }
        let old = appliedSettings
        appliedSettings = settings
        let webSettings = webkit_web_view_get_settings(view)
        if old?.javascript != settings.javascript { webkit_settings_set_enable_javascript(webSettings, settings.javascript ? 1 : 0) }
        if old?.backForwardGestures != settings.backForwardGestures {
            webkit_settings_set_enable_back_forward_navigation_gestures(webSettings, settings.backForwardGestures ? 1 : 0)
        }
        if old?.userAgentSuffix != settings.userAgentSuffix {
            webkit_settings_set_user_agent(webSettings, nil)  // back to WebKit's default
            if let suffix = settings.userAgentSuffix, !suffix.isEmpty, let base = webkit_settings_get_user_agent(webSettings) {
                webkit_settings_set_user_agent(webSettings, String(cString: base) + " " + suffix)
            }
        }
        if old?.zoom != settings.zoom { webkit_web_view_set_zoom_level(view, settings.zoom) }
    }

    /// Shows one of Porthole's pages in the view under `uri` (so Back and Reload behave).
    func showPage(_ html: String, as uri: String) {
        guard let view else { return }
        alternatePageURI = uri
        webkit_web_view_load_alternate_html(view, html, uri, nil)
    }

    // MARK: Signals

    func attach(_ view: UnsafeMutablePointer<WebKitWebView>, connections: SignalConnections) {
        self.view = view
        let object = UnsafeMutableRawPointer(view)
        connections.connect(object, "load-changed", .enumValue { [unowned self] event in self.loadChanged(WebKitLoadEvent(event)) })
        connections.connect(object, "load-failed", .enumStringErrorReturningBool { [unowned self] _, uri, error in
            self.loadFailed(uri: uri, error: error)
        })
        connections.connect(object, "decide-policy", .pointerEnumReturningBool { [unowned self] decision, type in
            self.decidePolicy(decision!.assumingMemoryBound(to: WebKitPolicyDecision.self), type: WebKitPolicyDecisionType(type))
        })
        connections.connect(object, "create", .pointerReturningPointer { [unowned self] action in
            // window.open() arrives here rather than as a NEW_WINDOW_ACTION decision. Porthole has
            // one view: decide the URL like a new-window navigation and, if allowed, load it here.
            if let action = action.map(OpaquePointer.init) { self.openNewWindowRequest(action) }
            return nil
        })
        connections.connect(object, "notify::estimated-load-progress", .pointer { [unowned self] _ in
            guard let view = self.view else { return }
            self.parent.onEvent(.progress(webkit_web_view_get_estimated_load_progress(view)))
        })
        connections.connect(object, "notify::title", .pointer { [unowned self] _ in self.parent.onEvent(.title(self.title)) })
        connections.connect(object, "notify::uri", .pointer { [unowned self] _ in self.parent.onEvent(.uri(self.uri)) })
        connections.connect(object, "notify::is-loading", .pointer { [unowned self] _ in self.parent.onEvent(.loading(self.isLoading)) })
        connections.connect(object, "web-process-terminated", .enumValue { [unowned self] _ in
            self.alternatePageURI = nil  // the page being shown is gone with its process
            self.parent.onEvent(.webProcessTerminated)
            if let content = self.deferredContent {
                self.deferredContent = nil
                self.load(content)
            }
        })
        connections.connect(object, "button-press-event", .pointerReturningBool { [unowned self] event in
            // Mouse buttons 8 and 9 are the conventional Back and Forward buttons.
            switch porthole_event_button(event?.assumingMemoryBound(to: GdkEvent.self)) {
            case 8: self.goBack(); return true
            case 9: self.goForward(); return true
            default: return false
            }
        })
        if let list = webkit_web_view_get_back_forward_list(view) {
            connections.connect(UnsafeMutableRawPointer(list), "changed", .twoPointers { [unowned self] _, _ in self.historyChanged() })
        }
    }

    func detach() {
        stop()
        view = nil
    }

    private func historyChanged() {
        parent.onEvent(.history(canGoBack: canGoBack, canGoForward: canGoForward))
    }

    private func loadChanged(_ event: WebKitLoadEvent) {
        let ours = alternatePageURI != nil
        switch event {
        case WEBKIT_LOAD_STARTED: if !ours { parent.onEvent(.loadStarted) }
        case WEBKIT_LOAD_REDIRECTED: parent.onEvent(.loadRedirected)
        case WEBKIT_LOAD_COMMITTED: if !ours { parent.onEvent(.loadCommitted(uri: uri ?? "")) }
        case WEBKIT_LOAD_FINISHED:
            alternatePageURI = nil
            parent.onEvent(.loadFinished)
            historyChanged()
            if let content = deferredContent {
                deferredContent = nil
                load(content)
            }
        default: break
        }
    }

    private func loadFailed(uri: String, error: GLibError?) -> Bool {
        guard view != nil, let error else { return false }
        let networkDomain = String(cString: g_quark_to_string(webkit_network_error_quark()))
        let policyDomain = String(cString: g_quark_to_string(webkit_policy_error_quark()))
        if error.domain == networkDomain && error.code == WEBKIT_NETWORK_ERROR_CANCELLED.rawValue {
            return false  // a new load replaced this one
        }
        if error.domain == policyDomain && error.code == WEBKIT_POLICY_ERROR_FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE.rawValue {
            // Porthole refused something inside this load (a redirect hop, a download).
            guard let refusal = lastRefusal else { return false }
            lastRefusal = nil
            showBlockedPage(refusal.uri, reason: refusal.reason)
            parent.onEvent(.navigationBlocked(uri: refusal.uri, reason: refusal.reason, shown: true))
            return true
        }
        showPage(PortholePage.error(url: uri, message: error.message, homeURL: parent.homeURL), as: uri)
        parent.onEvent(.loadFailed(uri: uri, message: error.message))
        return true
    }

    private func decidePolicy(_ decision: UnsafeMutablePointer<WebKitPolicyDecision>, type: WebKitPolicyDecisionType) -> Bool {
        switch type {
        case WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION, WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION:
            let navigation = UnsafeMutableRawPointer(decision).assumingMemoryBound(to: WebKitNavigationPolicyDecision.self)
            guard let action = webkit_navigation_policy_decision_get_navigation_action(navigation),
                  let request = webkit_navigation_action_get_request(action),
                  let rawURI = webkit_uri_request_get_uri(request) else {
                webkit_policy_decision_ignore(decision)
                return true
            }
            let uri = String(cString: rawURI)
            decideNavigation(decision, action: action, uri: uri, newWindow: type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION)
        case WEBKIT_POLICY_DECISION_TYPE_RESPONSE:
            let response = UnsafeMutableRawPointer(decision).assumingMemoryBound(to: WebKitResponsePolicyDecision.self)
            if webkit_response_policy_decision_is_mime_type_supported(response) != 0 {
                webkit_policy_decision_use(decision)
            } else {
                // Porthole shows pages; it does not save files.
                let request = webkit_response_policy_decision_get_request(response)
                let uri = request.flatMap { webkit_uri_request_get_uri($0) }.map { String(cString: $0) } ?? ""
                let isMain = webkit_response_policy_decision_is_main_frame_main_resource(response) != 0
                let reason = "This is a file to download, and this browser does not download files."
                webkit_policy_decision_ignore(decision)
                if isMain {
                    lastRefusal = (uri, reason)  // shown when WebKit reports the abandoned load
                    logRefusal(uri, reason: reason, frame: "main")
                } else {
                    refuse(uri, reason: reason, frame: "subframe", showPage: false)
                }
            }
        default:
            webkit_policy_decision_ignore(decision)
        }
        return true
    }

    private func decideNavigation(_ decision: UnsafeMutablePointer<WebKitPolicyDecision>, action: OpaquePointer, uri: String, newWindow: Bool) {
        let type = webkit_navigation_action_get_navigation_type(action)
        let isRedirect = webkit_navigation_action_is_redirect(action) != 0

        if let pageURI = alternatePageURI, pageURI == uri, !newWindow, !isRedirect, type == WEBKIT_NAVIGATION_TYPE_OTHER {
            webkit_policy_decision_use(decision)  // Porthole's own error or Blocked page
            return
        }
        if uri == PortholePage.backURL {
            webkit_policy_decision_ignore(decision)
            goBack()
            return
        }

        var isTopLevel = false
        if !newWindow, !isRedirect, let expected = expectedTopLevel {
            switch (expected, type) {
            case (.load, WEBKIT_NAVIGATION_TYPE_OTHER), (.reload, WEBKIT_NAVIGATION_TYPE_RELOAD),
                 (.history, WEBKIT_NAVIGATION_TYPE_BACK_FORWARD):
                isTopLevel = true
                expectedTopLevel = nil
            default: break
            }
        }
        let query = NavigationQuery(uri: uri, kind: newWindow ? .newWindow : .navigation, isRedirect: isRedirect,
                                    isUserGesture: webkit_navigation_action_is_user_gesture(action) != 0,
                                    isTopLevelRequest: isTopLevel, sourceURI: self.uri)
        switch parent.decide(query) {
        case .allow where newWindow:
            webkit_policy_decision_ignore(decision)
            expectedTopLevel = .load
            if let view { webkit_web_view_load_uri(view, uri) }
        case .allow:
            webkit_policy_decision_use(decision)
        case .block(let reason):
            webkit_policy_decision_ignore(decision)
            lastRefusal = (uri, reason)
            refuse(uri, reason: reason, frame: newWindow ? "new-window" : isTopLevel ? "main" : isRedirect ? "redirect" : "page-initiated",
                   showPage: isTopLevel)
        }
    }

    private func openNewWindowRequest(_ action: OpaquePointer) {
        guard let request = webkit_navigation_action_get_request(action), let raw = webkit_uri_request_get_uri(request) else { return }
        let uri = String(cString: raw)
        // window.open() with no URL opens about:blank for the opener to write into: nothing to show.
        guard !uri.isEmpty, uri != "about:blank" else { return }
        let query = NavigationQuery(uri: uri, kind: .newWindow, isRedirect: false,
                                    isUserGesture: webkit_navigation_action_is_user_gesture(action) != 0,
                                    isTopLevelRequest: false, sourceURI: self.uri)
        switch parent.decide(query) {
        case .allow:
            expectedTopLevel = .load
            if let view { webkit_web_view_load_uri(view, uri) }
        case .block(let reason):
            refuse(uri, reason: reason, frame: "new-window", showPage: false)
        }
    }

    /// Logs a refusal, shows the Blocked page for top-level loads, tells the window.
    private func refuse(_ uri: String, reason: String, frame: String, showPage show: Bool) {
        logRefusal(uri, reason: reason, frame: frame)
        if show { showBlockedPage(uri, reason: reason) }
        parent.onEvent(.navigationBlocked(uri: uri, reason: reason, shown: show))
    }

    /// Every refusal is one structured log line (journald fields), whatever refused it.
    private func logRefusal(_ uri: String, reason: String, frame: String) {
        Log.write(.message, "blocked \(uri): \(reason)",
                  fields: ["PORTHOLE_EVENT": "navigation-blocked", "PORTHOLE_URL": uri, "PORTHOLE_FRAME": frame, "PORTHOLE_REASON": reason])
    }

    /// The Blocked page, under the refused URL when it is a page address (so Back and Reload
    /// behave), else under about:blank (a `javascript:` URL must never become the page's URL).
    private func showBlockedPage(_ uri: String, reason: String) {
        showPage(PortholePage.blocked(url: uri, reason: reason, homeURL: parent.homeURL), as: HTML.safeHref(uri) != nil ? uri : "about:blank")
    }
}
