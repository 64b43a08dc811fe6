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
    /// Brings failed and crashed pages back by itself (created in attach).
    private var recovery: PageRecovery?
    /// Loads of Porthole's own pages asked for and not yet started: the next STARTED events are
    /// theirs, so recovery can tell a real load (which cancels a pending retry) from its own page.
    private var ownPageStarts = 0
    private var ownPageLoading = false
    /// Certificates accepted for a `[Browser] tls-exceptions=` host in this view, so a certificate
    /// that still fails after being accepted shows the error page instead of looping.
    private var acceptedCertificates: [(host: String, certificate: ObjectOwner)] = []

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
            if let port = RestrictedPorts.port(of: uri) {
                showRestrictedPort(port, uri: uri)
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
        if old == nil {
            // No developer tools or inspector, in any mode (BrowsingRules.developerTools).
            webkit_settings_set_enable_developer_extras(webSettings, parent.rules.developerTools ? 1 : 0)
        }
    }

    /// Shows one of Porthole's pages in the view under `uri` (so Back and Reload behave).
    func showPage(_ html: String, as uri: String) {
        guard let view else { return }
        alternatePageURI = uri
        ownPageStarts += 1
        webkit_web_view_load_alternate_html(view, html, uri, nil)
    }

    /// Runs one of Porthole's scripts in its own script world (the page's scripts cannot see or
    /// change it). WebKit runs none while the page's JavaScript is off.
    func runPortholeScript(_ script: String) {
        guard let view else { return }
        webkit_web_view_evaluate_javascript(view, script, -1, "porthole", nil, nil, nil, nil)
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
        connections.connect(object, "web-process-terminated", .enumValue { [unowned self] reason in
            self.alternatePageURI = nil  // the page being shown is gone with its process
            self.ownPageStarts = 0
            if let content = self.deferredContent {
                // A load was waiting for Porthole's page: it replaces the crashed page.
                self.deferredContent = nil
                self.parent.onEvent(.webProcessTerminated)
                self.load(content)
            } else {
                self.webProcessTerminated(WebKitWebProcessTerminationReason(reason))
            }
        })
        connections.connect(object, "load-failed-with-tls-errors", .stringPointerEnumReturningBool { [unowned self] uri, certificate, flags in
            self.certificateFailed(uri: uri, certificate: certificate, flags: flags)
        })
        connections.connect(object, "permission-request", .pointerReturningBool { [unowned self] request in
            guard let request else { return false }
            return self.answerPermission(request)
        })
        connections.connect(object, "query-permission-state", .pointerReturningBool { [unowned self] query in
            guard let query else { return false }
            return self.answerPermissionQuery(OpaquePointer(query))
        })
        connections.connect(object, "context-menu", .threePointersReturningBool { [unowned self] _, _, _ in
            self.refuses("context-menu", unless: self.parent.rules.contextMenu)
        })
        connections.connect(object, "print", .pointerReturningBool { [unowned self] _ in
            self.refuses("print", unless: self.parent.rules.printing)
        })
        connections.connect(object, "run-file-chooser", .pointerReturningBool { [unowned self] request in
            guard self.refuses("file-chooser", unless: self.parent.rules.fileChooser) else { return false }
            if let request { webkit_file_chooser_request_cancel(request.assumingMemoryBound(to: WebKitFileChooserRequest.self)) }
            return true
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
        recovery = PageRecovery(coordinator: self)
    }

    func detach() {
        recovery?.stop()
        recovery = nil
        acceptedCertificates.forEach { $0.certificate.release() }
        acceptedCertificates.removeAll()
        stop()
        view = nil
    }

    private func historyChanged() {
        parent.onEvent(.history(canGoBack: canGoBack, canGoForward: canGoForward))
    }

    private func loadChanged(_ event: WebKitLoadEvent) {
        Log.debug("load event \(event.rawValue)", fields: ["PORTHOLE_URL": uri ?? ""])
        switch event {
        case WEBKIT_LOAD_STARTED:
            // Porthole's own pages (error, Blocked, countdown) are not loads the window or the
            // recovery should see as the user's.
            ownPageLoading = ownPageStarts > 0
            if ownPageLoading {
                ownPageStarts -= 1
            } else {
                recovery?.realLoadStarted()
                parent.onEvent(.loadStarted)
            }
        case WEBKIT_LOAD_REDIRECTED: parent.onEvent(.loadRedirected)
        case WEBKIT_LOAD_COMMITTED:
            if !ownPageLoading {
                recovery?.realLoadCommitted()
                parent.onEvent(.loadCommitted(uri: uri ?? ""))
            }
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
        Log.debug("load failed: \(error?.domain ?? "") \(error?.code ?? 0) \(error?.message ?? "")", fields: ["PORTHOLE_URL": uri])
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
        if parent.rules.retriesNetworkFailures, LoadFailure.classify(domain: error.domain, code: error.code) == .network {
            recovery?.networkFailed(uri: uri, message: error.message)
        } else {
            showPage(PortholePage.error(url: uri, message: error.message, homeURL: parent.homeURL), as: uri)
        }
        parent.onEvent(.loadFailed(uri: uri, message: error.message))
        return true
    }

    private func webProcessTerminated(_ reason: WebKitWebProcessTerminationReason) {
        let why = reason == WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT ? "exceeded-memory-limit"
            : reason == WEBKIT_WEB_PROCESS_TERMINATED_BY_API ? "terminated-by-api" : "crashed"
        Log.write(.message, "web process ended (\(why)): \(uri ?? "")",
                  fields: ["PORTHOLE_EVENT": "web-process-terminated", "PORTHOLE_URL": uri ?? "", "PORTHOLE_REASON": why])
        if parent.rules.reloadsAfterCrash, let uri, !uri.isEmpty {
            recovery?.crashed(uri: uri)
        }
        parent.onEvent(.webProcessTerminated)
    }

    /// A certificate error on a main-frame load. Returning true keeps WebKit from emitting
    /// load-failed: this is the one place that answers it.
    private func certificateFailed(uri: String, certificate: UnsafeMutableRawPointer?, flags: UInt32) -> Bool {
        guard let view else { return false }
        if case .acceptForHost(let host) = CertificatePolicy.decide(url: uri, exceptions: parent.rules.tlsExceptions),
           let certificate, !acceptedCertificates.contains(where: { $0.host == host && isSameCertificate($0.certificate, certificate) }) {
            let context = webkit_web_view_get_context(view)
            let tls = certificate.assumingMemoryBound(to: GTlsCertificate.self)
            // WebKit compares with the URL's host, which keeps an IPv6 literal's brackets.
            for form in host.contains(":") ? [host, "[\(host)]"] : [host] {
                webkit_web_context_allow_tls_certificate_for_host(context, tls, form)
            }
            acceptedCertificates.append((host, ObjectOwner(retaining: certificate)))
            Log.write(.message, "accepted the certificate of \(host) (tls-exceptions)",
                      fields: ["PORTHOLE_EVENT": "tls-exception", "PORTHOLE_URL": uri])
            expectedTopLevel = .load
            webkit_web_view_load_uri(view, uri)
            return true
        }
        let problems = CertificatePolicy.problems(flags: flags)
        Log.write(.warning, "certificate refused for \(uri): \(problems.joined(separator: " "))",
                  fields: ["PORTHOLE_EVENT": "tls-error", "PORTHOLE_URL": uri])
        showPage(PortholePage.certificateError(url: uri, problems: problems, homeURL: parent.homeURL), as: uri)
        parent.onEvent(.loadFailed(uri: uri, message: problems.joined(separator: " ")))
        return true
    }

    private func isSameCertificate(_ owner: ObjectOwner, _ certificate: UnsafeMutableRawPointer) -> Bool {
        guard let accepted: UnsafeMutablePointer<GTlsCertificate> = owner.typed() else { return false }
        return g_tls_certificate_is_same(accepted, certificate.assumingMemoryBound(to: GTlsCertificate.self)) != 0
    }

    /// Answers every permission request: Core decides, for the host of the page asking.
    private func answerPermission(_ request: UnsafeMutableRawPointer) -> Bool {
        let kind = PermissionRequest(webKitRequest: request)
        let host = uri.flatMap(URLHelpers.host(of:))
        let granted = PermissionPolicy.allows(kind, host: host, privacy: parent.rules.privacy)
        let name = PermissionPolicy.name(of: kind)
        if granted {
            webkit_permission_request_allow(OpaquePointer(request))
        } else {
            webkit_permission_request_deny(OpaquePointer(request))
        }
        Log.write(.message, "\(granted ? "granted" : "denied") \(name) to \(host ?? "a page without a host")",
                  fields: ["PORTHOLE_EVENT": "permission", "PORTHOLE_PERMISSION": name, "PORTHOLE_URL": uri ?? "",
                           "PORTHOLE_GRANTED": granted ? "true" : "false"])
        parent.onEvent(.permissionAnswered(name, granted: granted))
        return true
    }

    /// Answers `navigator.permissions.query()` as a request would be answered, so a page does
    /// not offer a button for what it can never get. Other names keep WebKit's answer.
    private func answerPermissionQuery(_ query: OpaquePointer) -> Bool {
        guard let name = webkit_permission_state_query_get_name(query).map({ String(cString: $0) }),
              let permission = PermissionPolicy.permission(queryName: name) else { return false }
        let origin = webkit_permission_state_query_get_security_origin(query)
        let host = origin.flatMap { webkit_security_origin_get_host($0) }.map { String(cString: $0) }
        let granted = PermissionPolicy.allows(.permissions([permission]), host: host, privacy: parent.rules.privacy)
        webkit_permission_state_query_finish(query, granted ? WEBKIT_PERMISSION_STATE_GRANTED : WEBKIT_PERMISSION_STATE_DENIED)
        return true
    }

    /// Whether to refuse `what` (the handler then returns true, so WebKit's own handler, which
    /// would show the menu or dialog, never runs).
    private func refuses(_ what: String, unless allowed: Bool) -> Bool {
        guard !allowed else { return false }
        Log.debug("refused \(what)", fields: ["PORTHOLE_EVENT": "refused", "PORTHOLE_WHAT": what])
        parent.onEvent(.refused(what))
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
            if canGoBack { goBack() } else if let home = parent.homeURL { load(WebContent(id: 0, .url(home))) }  // nothing before: Home
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
            if let port = RestrictedPorts.port(of: uri) {
                // WebKit would commit an empty page without reporting a failure: say why instead.
                webkit_policy_decision_ignore(decision)
                if isTopLevel { showRestrictedPort(port, uri: uri) }
                return
            }
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

    /// The error page for a URL on a port browsers never use (WebKit shows nothing there).
    private func showRestrictedPort(_ port: Int, uri: String) {
        let message = RestrictedPorts.message(port: port)
        showPage(PortholePage.error(url: uri, message: message, homeURL: parent.homeURL), as: uri)
        parent.onEvent(.loadFailed(uri: uri, message: message))
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
        // Back leads somewhere when the view showed a page before this one.
        let hasPageBefore = canGoBack || !(self.uri ?? "").isEmpty
        showPage(PortholePage.blocked(url: uri, reason: reason, homeURL: parent.homeURL, canGoBack: hasPageBefore,
                                      configurationBroken: parent.rules.configurationBroken),
                 as: HTML.safeHref(uri) != nil ? uri : "about:blank")
    }
}
