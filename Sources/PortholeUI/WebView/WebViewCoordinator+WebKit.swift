// The coordinator's translations between WebKit's objects and Core's values, and the small
// WebKit calls its commands need.
import CWebKitGtk
import GLibBridge
import PortholeCore

extension WebViewCoordinator {
    func history(_ direction: HistoryDirection) {
        guard let item = historyItem(direction) else { return }
        send(.historyRequested(direction, targetURI: webkit_back_forward_list_item_get_uri(item).map { String(cString: $0) }))
    }

    static func stage(_ event: WebKitLoadEvent) -> LoadStage {
        switch event {
        case WEBKIT_LOAD_STARTED: return .started
        case WEBKIT_LOAD_REDIRECTED: return .redirected
        case WEBKIT_LOAD_COMMITTED: return .committed
        default: return .finished
        }
    }

    static func settings(for parent: WebView, tag: String) -> PageSettings {
        var settings = PageSettings(homeURL: parent.homeURL)
        settings.retriesNetworkFailures = parent.rules.retriesNetworkFailures
        settings.reloadsAfterCrash = parent.rules.reloadsAfterCrash
        settings.refusesDrops = parent.rules.refusesDrops
        settings.tlsExceptions = parent.rules.tlsExceptions
        settings.unresponsiveTimeout = parent.rules.unresponsiveTimeout
        settings.pageTag = tag
        return settings
    }

    /// Goes to the history item Back or Forward leads to; with none there, tells the window
    /// (whose session decides what a Back with nothing before it does).
    func goToHistoryItem(_ direction: HistoryDirection) {
        if let view, let item = historyItem(direction) {
            webkit_web_view_go_to_back_forward_list_item(view, item)
        } else {
            parent.onEvent(.historyEmpty(direction))
        }
    }

    /// Serves Porthole's `page` at its `porthole:` URL and loads it. When the view shows nothing
    /// yet, the page replaces nothing, so its Back has nowhere to go and is left out.
    func show(_ page: OwnPage, at uri: String, in view: UnsafeMutablePointer<WebKitWebView>) {
        let hasPageBefore = !(webkit_web_view_get_uri(view).map { String(cString: $0) } ?? "").isEmpty
        parent.engine.servePage(page.html(homeURL: parent.homeURL, canGoBack: hasPageBefore,
                                          configurationBroken: parent.rules.configurationBroken,
                                          namesWhomToAsk: parent.rules.namesWhomToAsk), at: uri)
        webkit_web_view_load_uri(view, uri)
    }

    /// Keeps decision `id` past its signal (a reference of its own) and asks the visitor whether
    /// to send the form again; the answer goes back to the session.
    func askBeforeResubmitting(_ id: Int, in view: UnsafeMutablePointer<WebKitWebView>) {
        guard let asked = decision, asked.id == id else { return }
        heldDecisions[id] = ObjectOwner(retaining: UnsafeMutableRawPointer(asked.pointer))
        decision = nil
        ResubmitQuestion.ask(over: view) { [weak self] resend in self?.send(.resubmitAnswered(id: id, resend: resend)) }
    }

    /// The view is going: decisions still waiting for the visitor are refused and let go.
    func refuseHeldDecisions() {
        for owner in heldDecisions.values {
            if let pointer: UnsafeMutablePointer<WebKitPolicyDecision> = owner.typed() { webkit_policy_decision_ignore(pointer) }
            owner.release()
        }
        heldDecisions.removeAll()
    }

    /// The history item Back or Forward leads to: the nearest one that is not a countdown page.
    func historyItem(_ direction: HistoryDirection) -> UnsafeMutablePointer<WebKitBackForwardListItem>? {
        guard let view, let list = webkit_web_view_get_back_forward_list(view) else { return nil }
        var step: Int32 = direction == .back ? -1 : 1
        while let item = webkit_back_forward_list_get_nth_item(list, step) {
            let uri = webkit_back_forward_list_item_get_uri(item).map { String(cString: $0) } ?? ""
            if !PageSession.isPassedOverInHistory(uri) { return item }
            step += direction == .back ? -1 : 1
        }
        return nil
    }

    func loadPendingContent(_ view: UnsafeMutablePointer<WebKitWebView>) {
        switch pendingContent?.kind {
        case .html(let html, let baseURI): webkit_web_view_load_html(view, html, baseURI)
        case .bytes(let bytes, let mimeType, let baseURI):
            // g_bytes_new copies, so WebKit never sees memory that is only valid in this scope.
            let gbytes = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            webkit_web_view_load_bytes(view, gbytes, mimeType, nil, baseURI)
            g_bytes_unref(gbytes)
        default: break
        }
        pendingContent = nil
    }

    /// Runs one of Porthole's scripts in its own script world (the page's scripts cannot see or
    /// change it). WebKit runs none while the page's JavaScript is off.
    func runPortholeScript(_ script: String) {
        guard let view else { return }
        webkit_web_view_evaluate_javascript(view, script, -1, "porthole", nil, nil, nil, nil)
    }

    static func facts(_ action: OpaquePointer, newWindow: Bool) -> NavigationFacts? {
        guard let request = webkit_navigation_action_get_request(action), let raw = webkit_uri_request_get_uri(request) else { return nil }
        let types: [WebKitNavigationType: NavigationType] = [
            WEBKIT_NAVIGATION_TYPE_LINK_CLICKED: .linkClicked, WEBKIT_NAVIGATION_TYPE_FORM_SUBMITTED: .formSubmitted,
            WEBKIT_NAVIGATION_TYPE_BACK_FORWARD: .backForward, WEBKIT_NAVIGATION_TYPE_RELOAD: .reload,
            WEBKIT_NAVIGATION_TYPE_FORM_RESUBMITTED: .formResubmitted,
        ]
        return NavigationFacts(uri: String(cString: raw), type: types[webkit_navigation_action_get_navigation_type(action)] ?? .other,
                               isRedirect: webkit_navigation_action_is_redirect(action) != 0,
                               isUserGesture: webkit_navigation_action_is_user_gesture(action) != 0, isNewWindow: newWindow)
    }
}

extension PageCommand {
    var isShow: Bool { if case .show = self { return true } else { return false } }
}
