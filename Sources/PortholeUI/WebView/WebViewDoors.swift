// The coordinator's other doors: view state for the window, permissions, the context menu,
// printing, file choosers, drops and certificates. Each asks Core or the rules and answers WebKit.
import CWebKitGtk
import GLibBridge
import PortholeCore

extension WebViewCoordinator {
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
        applyContainment()
    }

    /// WebKit features that fetch or connect outside `WebKitWebPage::send-request`, where the
    /// second layer decides: SharedWorker and ServiceWorker loaders (workers have no web page),
    /// `<a ping>` (its redirects are followed in the network process), and the network process's
    /// preconnects and DNS prefetches. With `subresources=policy` they are off; with `allow`
    /// (subresources load from anywhere anyway) they are WebKit's defaults.
    func applyContainment() {
        guard let view else { return }
        let contains = parent.engine.webProcessPolicy.subresources == .policy
        guard appliedContainment != contains else { return }
        appliedContainment = contains
        let webSettings = webkit_web_view_get_settings(view)
        guard let features = webkit_settings_get_all_features() else { return }
        defer { webkit_feature_list_unref(features) }
        for index in 0..<webkit_feature_list_get_length(features) {
            guard let feature = webkit_feature_list_get(features, index),
                  Self.uncontainedFeatures.contains(String(cString: webkit_feature_get_identifier(feature))) else { continue }
            webkit_settings_set_feature_enabled(webSettings, feature, contains ? 0 : webkit_feature_get_default_value(feature))
        }
    }

    /// `webkit_settings_get_all_features()` identifiers (WebKitGTK 2.50).
    static let uncontainedFeatures: Set<String> = ["SharedWorker", "ServiceWorkers", "ServiceWorkerNavigationPreload",
                                                   "LinkPreconnect", "LinkPreconnectEarlyHints", "LinkDNSPrefetch", "LinkPrefetch"]

    /// What the window's chrome follows: progress, title, URI, loading, history, mouse Back/Forward.
    func connectViewState(_ object: UnsafeMutableRawPointer, connections: SignalConnections) {
        connections.connect(object, "notify::estimated-load-progress", .pointer { [unowned self] _ in
            guard let view = self.view else { return }
            self.parent.onEvent(.progress(webkit_web_view_get_estimated_load_progress(view)))
        })
        connections.connect(object, "notify::title", .pointer { [unowned self] _ in self.parent.onEvent(.title(self.title)) })
        connections.connect(object, "notify::uri", .pointer { [unowned self] _ in self.send(.uriChanged(self.uri)) })
        connections.connect(object, "notify::is-loading", .pointer { [unowned self] _ in self.parent.onEvent(.loading(self.isLoading)) })
        connections.connect(object, "button-press-event", .pointerReturningBool { [unowned self] event in
            // Mouse buttons 8 and 9 are the conventional Back and Forward buttons.
            switch porthole_event_button(event?.assumingMemoryBound(to: GdkEvent.self)) {
            case 8: self.goBack(); return true
            case 9: self.goForward(); return true
            default: return false
            }
        })
        if let view, let list = webkit_web_view_get_back_forward_list(view) {
            connections.connect(UnsafeMutableRawPointer(list), "changed", .twoPointers { [unowned self] _, _ in
                self.parent.onEvent(.history(canGoBack: self.canGoBack, canGoForward: self.canGoForward))
            })
        }
    }

    /// Everything else WebKit asks the embedder, and drops.
    func connectDoors(_ object: UnsafeMutableRawPointer, connections: SignalConnections) {
        connections.connect(object, "permission-request", .pointerReturningBool { [unowned self] request in
            guard let request else { return false }
            return self.answerPermission(request)
        })
        connections.connect(object, "query-permission-state", .pointerReturningBool { [unowned self] query in
            guard let query else { return false }
            return self.answerPermissionQuery(OpaquePointer(query))
        })
        connections.connect(object, "context-menu", .threePointersReturningBool { [unowned self] menu, _, _ in
            if self.refuses("context-menu", unless: self.parent.rules.contextMenu) { return true }
            if let menu, !self.parent.rules.downloads { Self.removeDownloadItems(menu.assumingMemoryBound(to: WebKitContextMenu.self)) }
            return false
        })
        connections.connect(object, "print", .pointerReturningBool { [unowned self] _ in
            self.refuses("print", unless: self.parent.rules.printing)
        })
        connections.connect(object, "run-file-chooser", .pointerReturningBool { [unowned self] request in
            guard self.refuses("file-chooser", unless: self.parent.rules.fileChooser) else { return false }
            if let request { webkit_file_chooser_request_cancel(request.assumingMemoryBound(to: WebKitFileChooserRequest.self)) }
            return true
        })
        // A drop from another application would make WebKit navigate to it without a decision the
        // policy can tell from a page's own: Porthole takes such drops over. These handlers run
        // before WebKit's own (connected after), so WebKit still learns the data while dragging.
        connections.connect(object, "drag-data-received", .dragDataReceived { [unowned self] context, selection, _ in
            guard let context, gtk_drag_get_source_widget(OpaquePointer(context)) == nil, let selection else { return }
            let data = OpaquePointer(selection)
            if let uris = gtk_selection_data_get_uris(data) {
                self.droppedText = uris.pointee.map { String(cString: $0) }
                g_strfreev(uris)
            } else if let text = gtk_selection_data_get_text(data) {
                self.droppedText = String(cString: text)
                g_free(text)
            }
        })
        connections.connect(object, "drag-drop", .dragDrop { [unowned self] context, _, _, time in
            guard let context, gtk_drag_get_source_widget(OpaquePointer(context)) == nil else { return false }
            gtk_drag_finish(OpaquePointer(context), 0, 0, time)
            self.dropped(self.droppedText ?? "")
            self.droppedText = nil
            return true
        })
    }

    /// A URL or text dropped on the view from another application (the drag handler's entry point).
    public func dropped(_ text: String) {
        send(.dropped(text))
    }

    /// "Download Linked File" and its kin would send the request before the download is refused.
    public static func removeDownloadItems(_ menu: UnsafeMutablePointer<WebKitContextMenu>) {
        let downloads: Set<UInt32> = [WEBKIT_CONTEXT_MENU_ACTION_DOWNLOAD_LINK_TO_DISK, WEBKIT_CONTEXT_MENU_ACTION_DOWNLOAD_IMAGE_TO_DISK,
                                      WEBKIT_CONTEXT_MENU_ACTION_DOWNLOAD_VIDEO_TO_DISK, WEBKIT_CONTEXT_MENU_ACTION_DOWNLOAD_AUDIO_TO_DISK].map(\.rawValue).reduce(into: []) { $0.insert($1) }
        var index = webkit_context_menu_get_n_items(menu)
        while index > 0 {
            index -= 1
            guard let item = webkit_context_menu_get_item_at_position(menu, index) else { continue }
            if downloads.contains(webkit_context_menu_item_get_stock_action(item).rawValue) { webkit_context_menu_remove(menu, item) }
        }
    }

    /// A certificate error on a main-frame load. Returning true keeps WebKit from emitting
    /// load-failed: this is the one place that answers it.
    func certificateFailed(uri: String, certificate: UnsafeMutableRawPointer?, flags: UInt32) -> Bool {
        guard view != nil else { return false }
        failingCertificate = certificate
        defer { failingCertificate = nil }
        let accepted = certificate.map { certificate in acceptedCertificates.filter { isSameCertificate($0.certificate, certificate) }.map(\.host) } ?? []
        send(.certificateFailed(uri: uri, problems: CertificatePolicy.problems(flags: flags), acceptedHosts: accepted))
        return true
    }

    func acceptCertificate(for host: String) {
        guard let view, let certificate = failingCertificate else { return }
        let context = webkit_web_view_get_context(view)
        let tls = certificate.assumingMemoryBound(to: GTlsCertificate.self)
        // WebKit compares with the URL's host, which keeps an IPv6 literal's brackets.
        for form in host.contains(":") ? [host, "[\(host)]"] : [host] {
            webkit_web_context_allow_tls_certificate_for_host(context, tls, form)
        }
        acceptedCertificates.append((host, ObjectOwner(retaining: certificate)))
        // WebKit hands the exception to the network process and reports no completion. A fetch of
        // the same data manager goes to that process after it, in order: its answer means the
        // exception is held, and the retry may start (issue 15: the retry that raced the
        // exception failed its TLS check again).
        let manager = webkit_web_context_get_website_data_manager(context)
        let box = CertificateBox(coordinator: self, host: host)
        webkit_website_data_manager_fetch(manager, WEBKIT_WEBSITE_DATA_COOKIES, nil, exceptionHeld,
                                          Unmanaged.passRetained(box).toOpaque())
    }

    fileprivate func certificateHeld(for host: String) {
        guard view != nil else { return }
        send(.certificateAccepted(host: host))
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
}

/// What the network process's answer comes back to: the coordinator (weakly: a view dismantled
/// meanwhile is not told) and the host whose certificate was accepted.
@MainActor
private final class CertificateBox {
    weak var coordinator: WebViewCoordinator?
    let host: String
    init(coordinator: WebViewCoordinator, host: String) {
        self.coordinator = coordinator
        self.host = host
    }
}

/// `void (*GAsyncReadyCallback)(GObject *source, GAsyncResult *result, gpointer data)`: the fetch
/// after `webkit_web_context_allow_tls_certificate_for_host` has been answered.
private let exceptionHeld: GAsyncReadyCallback = { source, result, data in
    nonisolated(unsafe) let boxPointer = data!  // passed back on the main thread, where it was made
    let manager = UnsafeMutableRawPointer(source!).assumingMemoryBound(to: WebKitWebsiteDataManager.self)
    var error: UnsafeMutablePointer<GError>?
    if let list = webkit_website_data_manager_fetch_finish(manager, result, &error) {
        g_list_free_full(list) { webkit_website_data_unref(OpaquePointer($0)) }
    }
    _ = GLibError.take(error)  // even a failed fetch was answered after the exception
    MainActor.assumeIsolated {
        let box = Unmanaged<CertificateBox>.fromOpaque(boxPointer).takeRetainedValue()
        box.coordinator?.certificateHeld(for: box.host)
    }
}
