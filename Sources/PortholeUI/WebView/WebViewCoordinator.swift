// The WebKitWebView adapter: WebKit's signals become PageSession events, the session's commands
// become WebKit calls. Decisions live in Core's PageSession; nothing here outlives one signal
// except what WebKit needs kept (the view, certificates accepted, the wake-up timer).
import CWebKitGtk
import GLibBridge
import PortholeCore

@MainActor
public final class WebViewCoordinator {
    /// The representable as last applied (by value: no cycle back to the window).
    var parent: WebView { didSet { session.settings = Self.settings(for: parent, tag: session.settings.pageTag); session.policy = parent.decide } }
    /// The view, not owned: the RepresentableHost owns the widget and outlives the connections.
    public private(set) var view: UnsafeMutablePointer<WebKitWebView>?
    var appliedContent: WebContent?
    var appliedSettings: WebViewSettings?
    /// Whether WebKit's own fetchers the second layer cannot see are off (see `applyContainment`).
    var appliedContainment: Bool?

    private var session: PageSession
    /// The HTML or bytes of the last content request, loaded on the session's `.loadContent`.
    var pendingContent: WebContent?
    /// The policy decision being answered while decide-policy runs.
    var decision: (id: Int, pointer: UnsafeMutablePointer<WebKitPolicyDecision>)?
    /// Decisions kept past their signal while the visitor is asked (a form sent again), by id.
    var heldDecisions: [Int: ObjectOwner] = [:]
    private var nextDecisionID = 1
    /// The certificate of the failing load while load-failed-with-tls-errors runs.
    var failingCertificate: UnsafeMutableRawPointer?
    /// Certificates accepted for a `[Browser] tls-exceptions=` host in this view.
    var acceptedCertificates: [(host: String, certificate: ObjectOwner)] = []
    /// What an external drag over the view carries, learnt while dragging, used on the drop.
    var droppedText: String?
    /// The page session's `.tick`, on the window's clock (time is read from it too).
    let wakeUp: WakeUp
    private let monitorConnections = SignalConnections()
    private static var views = 0

    init(parent: WebView) {
        self.parent = parent
        wakeUp = WakeUp(clock: parent.clock)
        Self.views += 1
        session = PageSession(settings: Self.settings(for: parent, tag: "\(Self.views)-"), policy: parent.decide)
    }

    // MARK: Commands from the window

    public func goBack() { history(.back) }
    public func goForward() { history(.forward) }
    public func reload() { send(.reloadRequested(currentURI: uri)) }
    public func stop() { send(.stopRequested) }
    /// WebKit cancelled this view's sign-in request by itself (see SignInRecovery).
    func signInWithdrawn() { send(.signInWithdrawn) }

    public var uri: String? { view.flatMap { webkit_web_view_get_uri($0) }.map { String(cString: $0) } }
    public var title: String? { view.flatMap { webkit_web_view_get_title($0) }.map { String(cString: $0) } }
    public var isLoading: Bool { view.map { webkit_web_view_is_loading($0) != 0 } ?? false }
    public var canGoBack: Bool { historyItem(.back) != nil }
    public var canGoForward: Bool { historyItem(.forward) != nil }
    /// What the view shows, as the page session has it (the one owner of the current URL).
    public var shown: ShownPage { session.shown }

    func load(_ content: WebContent) {
        switch content.kind {
        case .url(let uri): send(.loadRequested(.url(uri)))
        case .file(let path):
            send(.loadRequested(URLHelpers.fileURI(forPath: path).map { .url($0) } ?? .unusableFile(path: path)))
        case .html(_, let baseURI), .bytes(_, _, let baseURI):
            pendingContent = content
            send(.loadRequested(.content(baseURI: baseURI)))
        }
    }

    // MARK: Events in, commands out

    @discardableResult
    func send(_ event: PageEvent) -> [PageCommand] {
        // A reloaded configuration reaches the view's settings before its next load.
        if case .loadRequested = event { applyContainment() }
        let commands = session.handle(event)
        commands.forEach(perform)
        return commands
    }

    private func perform(_ command: PageCommand) {
        guard let view else { return }
        switch command {
        case .use(let id), .ignore(let id):
            let held = heldDecisions.removeValue(forKey: id)
            defer { held?.release() }
            guard let pointer = decision?.id == id ? decision?.pointer : held?.typed(WebKitPolicyDecision.self) else { return }
            if decision?.id == id { decision = nil }
            if case .use = command { webkit_policy_decision_use(pointer) } else { webkit_policy_decision_ignore(pointer) }
        case .askBeforeResubmitting(let id): askBeforeResubmitting(id, in: view)
        case .load(let uri): webkit_web_view_load_uri(view, uri)
        case .loadContent: loadPendingContent(view)
        case .reload: webkit_web_view_reload(view)
        case .goBack, .goForward: goToHistoryItem(command == .goBack ? .back : .forward)
        case .stop: webkit_web_view_stop_loading(view)
        case .show(let page, let uri): show(page, at: uri, in: view)
        case .updateCountdown(let text): runPortholeScript(PortholePage.countdownScript(text))
        case .wake(let time):
            wakeUp.set(time) { [weak self] now in self?.send(.tick(now)) }
        case .terminateWebProcess: webkit_web_view_terminate_web_process(view)
        case .askPage(let id): ask(view, id)
        case .acceptCertificate(let host): acceptCertificate(for: host)
        case .notice(let notice): parent.onEvent(notice)
        case .log(let entry): Log.write(entry)
        }
    }

    // MARK: Signals

    func attach(_ view: UnsafeMutablePointer<WebKitWebView>, connections: SignalConnections) {
        self.view = view
        let object = UnsafeMutableRawPointer(view)
        connections.connect(object, "load-changed", .enumValue { [unowned self] event in self.loadChanged(WebKitLoadEvent(event)) })
        connections.connect(object, "load-failed", .enumStringErrorReturningBool { [unowned self] _, uri, error in
            guard let error else { return false }
            let failure = LoadFailure.classify(domain: error.domain, code: error.code)
            return self.send(.loadFailed(uri: uri, failure: failure, message: error.message, at: self.wakeUp.now)).contains(where: \.isShow)
        })
        connections.connect(object, "decide-policy", .pointerEnumReturningBool { [unowned self] decision, type in
            self.decidePolicy(decision!.assumingMemoryBound(to: WebKitPolicyDecision.self), type: WebKitPolicyDecisionType(type))
        })
        connections.connect(object, "create", .pointerReturningPointer { [unowned self] action in
            // window.open() arrives here rather than as a NEW_WINDOW_ACTION decision.
            if let action = action.map(OpaquePointer.init), let facts = Self.facts(action, newWindow: true) {
                self.send(.windowRequested(uri: facts.uri, currentURI: self.uri))
            }
            return nil
        })
        connections.connect(object, "web-process-terminated", .enumValue { [unowned self] reason in
            let why = WebKitWebProcessTerminationReason(reason)
            self.send(.processTerminated(why == WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT ? .exceededMemoryLimit
                                         : why == WEBKIT_WEB_PROCESS_TERMINATED_BY_API ? .terminatedByAPI : .crashed, at: self.wakeUp.now))
        })
        connections.connect(object, "notify::is-web-process-responsive", .pointer { [unowned self] _ in
            self.send(.responsivenessChanged(webkit_web_view_get_is_web_process_responsive(view) != 0, at: self.wakeUp.now))
        })
        connections.connect(object, "load-failed-with-tls-errors", .stringPointerEnumReturningBool { [unowned self] uri, certificate, flags in
            self.certificateFailed(uri: uri, certificate: certificate, flags: flags)
        })
        connectViewState(object, connections: connections)
        connectDoors(object, connections: connections)
        if let monitor = g_network_monitor_get_default() {
            monitorConnections.connect(UnsafeMutableRawPointer(monitor), "network-changed", .enumValue { [weak self] available in
                self?.send(.networkChanged(available: available != 0))
            })
        }
    }

    func detach() {
        wakeUp.cancel()
        monitorConnections.disconnectAll()
        acceptedCertificates.forEach { $0.certificate.release() }
        acceptedCertificates.removeAll()
        refuseHeldDecisions()
        stop()
        view = nil
    }

    private func loadChanged(_ event: WebKitLoadEvent) {
        let stage = Self.stage(event)
        send(.loadChanged(stage, uri: uri ?? ""))
        if stage == .committed { send(.pageWatchStarted(at: self.wakeUp.now)) }
        if stage == .finished { parent.onEvent(.history(canGoBack: canGoBack, canGoForward: canGoForward)) }
    }

    /// Sends the page's web process `WebProcessPolicy.questionName`; its answer (or WebKit's
    /// error, when the process is gone) comes back as `.pageAnswered`.
    private func ask(_ view: UnsafeMutablePointer<WebKitWebView>, _ id: Int) {
        let message = webkit_user_message_new(WebProcessPolicy.questionName, nil)
        webkit_web_view_send_message_to_page(view, message, nil, pageAnswered, Unmanaged.passRetained(QuestionBox(self, id)).toOpaque())
    }

    private func decidePolicy(_ pointer: UnsafeMutablePointer<WebKitPolicyDecision>, type: WebKitPolicyDecisionType) -> Bool {
        let id = nextDecisionID
        nextDecisionID += 1
        decision = (id, pointer)
        switch type {
        case WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION, WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION:
            let navigation = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: WebKitNavigationPolicyDecision.self)
            if let action = webkit_navigation_policy_decision_get_navigation_action(navigation),
               let facts = Self.facts(action, newWindow: type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION) {
                send(.navigationAsked(id: id, facts, currentURI: uri))
            }
        case WEBKIT_POLICY_DECISION_TYPE_RESPONSE:
            let response = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: WebKitResponsePolicyDecision.self)
            let responseURI = webkit_response_policy_decision_get_response(response).flatMap { webkit_uri_response_get_uri($0) }
                ?? webkit_response_policy_decision_get_request(response).flatMap { webkit_uri_request_get_uri($0) }
            if let responseURI {
                send(.responseAsked(id: id, ResponseFacts(uri: String(cString: responseURI),
                                                          isMainFrame: webkit_response_policy_decision_is_main_frame_main_resource(response) != 0,
                                                          canShow: webkit_response_policy_decision_is_mime_type_supported(response) != 0),
                                    currentURI: uri))
            }
        default: break
        }
        if let unanswered = decision {  // nothing the session knows how to answer: fail closed
            webkit_policy_decision_ignore(unanswered.pointer)
            decision = nil
        }
        return true
    }
}

/// What a question to the page's web process finishes into; the coordinator is weak (the view
/// may be gone by then).
@MainActor
private final class QuestionBox {
    weak var coordinator: WebViewCoordinator?
    let id: Int
    init(_ coordinator: WebViewCoordinator, _ id: Int) {
        self.coordinator = coordinator
        self.id = id
    }
}

/// `void (*GAsyncReadyCallback)(GObject *source, GAsyncResult *result, gpointer data)`.
private let pageAnswered: GAsyncReadyCallback = { source, result, data in
    guard let incoming = data else { return }
    nonisolated(unsafe) let data = incoming  // the box, released on the main thread below
    nonisolated(unsafe) let view = source.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: WebKitWebView.self) }
    nonisolated(unsafe) let result = result  // delivered on the main thread, used there
    MainActor.assumeIsolated {
        let box = Unmanaged<QuestionBox>.fromOpaque(data).takeRetainedValue()
        var error: UnsafeMutablePointer<GError>?
        if let view, let reply = webkit_web_view_send_message_to_page_finish(view, result, &error) {
            g_object_unref(UnsafeMutableRawPointer(reply))
        }
        // An error is an answer too: WebKit's own (the process went away, which is reported apart).
        _ = GLibError.take(error)
        box.coordinator?.send(.pageAnswered(id: box.id, at: box.coordinator?.wakeUp.now ?? GLibClock.monotonicNow))
    }
}
