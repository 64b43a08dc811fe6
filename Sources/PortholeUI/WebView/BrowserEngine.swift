// The WebKit web context Porthole's views share: website data, the `porthole:` scheme, proxy.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Box for the `porthole:` scheme handler, released by the context's destroy notify.
@MainActor
private final class SchemeBox {
    weak var engine: BrowserEngine?
    init(_ engine: BrowserEngine) { self.engine = engine }
}

/// `void (*WebKitURISchemeRequestCallback)(WebKitURISchemeRequest *request, gpointer user_data)`.
private let schemeTrampoline: WebKitURISchemeRequestCallback = { request, data in
    guard let incoming = request, let data else { return }
    nonisolated(unsafe) let request = incoming  // arrives on the main thread and stays there
    let box = Unmanaged<SchemeBox>.fromOpaque(data).takeUnretainedValue()
    MainActor.assumeIsolated { box.engine?.serve(request) }
}

private let releaseSchemeBox: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<SchemeBox>.fromOpaque(data).release()
}

/// A web context over its website data manager: one visitor's cookies, storage, cache,
/// credentials and certificate exceptions, and the web processes that saw them.
@MainActor
final class WebSession {
    let contextOwner: ObjectOwner
    let dataManagerOwner: ObjectOwner

    init(_ manager: UnsafeMutablePointer<WebKitWebsiteDataManager>) {
        dataManagerOwner = ObjectOwner(adopting: UnsafeMutableRawPointer(manager))
        contextOwner = ObjectOwner(adopting: UnsafeMutableRawPointer(webkit_web_context_new_with_website_data_manager(manager)))
    }

    /// A session whose data lives only in memory.
    static func ephemeral() -> WebSession { WebSession(webkit_website_data_manager_new_ephemeral()) }

    var context: UnsafeMutablePointer<WebKitWebContext> { contextOwner.typed()! }
    var dataManager: UnsafeMutablePointer<WebKitWebsiteDataManager> { dataManagerOwner.typed()! }

    func release() {
        contextOwner.release()
        dataManagerOwner.release()
    }
}

/// One web context for the process (WebKit allows a scheme to be registered once per context).
/// Holds what Porthole's own pages show, so a reloaded site list reaches the start page.
/// `renewSession()` swaps in a fresh context for a kiosk's next visitor; `prepareNextSession()`
/// makes that context ahead, while the current visitor is idle.
@MainActor
public final class BrowserEngine {
    /// The current visitor's context and data manager.
    private(set) var current: WebSession
    /// The next visitor's, made ahead by `prepareNextSession()`; nothing in it was seen by the current one.
    private(set) var next: WebSession?
    /// One user content manager for every view, across visitor sessions: it carries the
    /// WebSocket rules (see WebProcessExtension.swift).
    private let contentManagerOwner = ObjectOwner(adopting: UnsafeMutableRawPointer(webkit_user_content_manager_new()))
    public var userContentManager: UnsafeMutablePointer<WebKitUserContentManager> { contentManagerOwner.typed()! }
    /// The PDF viewer's style sheet in that manager: added once, not once per web view.
    public private(set) lazy var pdfViewerStyle = PDFViewerStyleSheet(manager: userContentManager)
    /// The proxy set with `setProxy`, applied again to a renewed session.
    private var proxyURI: String?
    private var proxyIgnore: [String] = []
    /// How many downloads were cancelled as they started (Porthole never saves files), and the
    /// last one's URL; a count, not a list, so a long-running kiosk keeps nothing per download.
    public private(set) var cancelledDownloadCount = 0
    public private(set) var lastCancelledDownload: String?
    /// The sites the start page lists.
    public var sites: SiteList
    /// Configuration problems; while there are any, the start page lists them instead of sites.
    public var problems: [String] = []
    /// The start page says whom to ask to add a site (at a desk, not in kiosk mode).
    public var namesWhomToAsk = false
    /// Porthole's pages shown in place of refused, failed or crashed loads, by `porthole:` URL
    /// (the most recent few, so Back and Forward to them still work).
    private var servedPages: [(uri: String, html: String)] = []

    /// Serves `html` at `uri` (a `porthole:` URL) from now on.
    public func servePage(_ html: String, at uri: String) {
        servedPages.removeAll { $0.uri == uri }
        servedPages.append((uri, html))
        if servedPages.count > 64 { servedPages.removeFirst() }
    }

    /// What the web process extension enforces in every web process (the second layer, see
    /// WebProcessExtension.swift). Setting it reaches the running web processes by a user message
    /// and the ones started later by their initialization data.
    public var webProcessPolicy: WebProcessPolicy {
        didSet {
            guard webProcessPolicy != oldValue else { return }
            sendPolicyToWebProcesses()
        }
    }

    /// What Porthole's own pages show for a loaded configuration (its sites, or its problems),
    /// and the policy its web processes enforce.
    public func show(_ result: ConfigLoadResult) {
        sites = result.effectiveConfiguration.sites
        problems = result.problems.map(\.description)
        namesWhomToAsk = BrowsingRules(configuration: result.effectiveConfiguration).namesWhomToAsk
        webProcessPolicy = WebProcessPolicy(configuration: result.effectiveConfiguration)
    }

    /// A context with persistent website data (`dataDirectory`/`cacheDirectory`, or WebKit's
    /// defaults under XDG dirs) or, when `ephemeral`, with data that lives only in memory.
    /// Whether page web processes run in WebKitGTK's bubblewrap sandbox (see SandboxSetup).
    public let sandboxed: Bool

    public init(sites: SiteList, ephemeral: Bool = false, dataDirectory: String? = nil, cacheDirectory: String? = nil,
                sandboxed: Bool = false) {
        self.sites = sites
        self.sandboxed = sandboxed
        // Until a configuration is shown: only the sites, everything else blocked.
        webProcessPolicy = WebProcessPolicy(sites: sites.sites)
        if ephemeral {
            current = WebSession.ephemeral()
        } else {
            let base = dataDirectory ?? Self.xdgDirectory(g_get_user_data_dir())
            let cache = cacheDirectory ?? Self.xdgDirectory(g_get_user_cache_dir())
            current = WebSession(Self.newDataManager(base: base, cache: cache))
        }
        setUp(current)
        applyWebSocketRules()
    }

    /// What every context gets: the sandbox, the `porthole:` scheme, downloads cancelled as they
    /// start, the web process extension, and the proxy.
    private func setUp(_ session: WebSession) {
        let context = session.context
        setUpSandbox(context)
        let box = SchemeBox(self)
        webkit_web_context_register_uri_scheme(context, PortholePage.scheme, schemeTrampoline,
                                               Unmanaged.passRetained(box).toOpaque(), releaseSchemeBox)
        // Porthole's pages are served by the browser itself: treat them as secure, not as web content.
        let security = webkit_web_context_get_security_manager(context)
        webkit_security_manager_register_uri_scheme_as_secure(security, PortholePage.scheme)
        Self.setPreferredLanguages(Localization.preferredLanguages(), of: context)
        // The response decision already refuses what the view cannot show; this catches the rest
        // (`<a download>`, context-menu "Download Linked File"), before a byte is written.
        session.contextOwner.connect("download-started", .pointer { [weak self] download in
            guard let download else { return }
            let request = webkit_download_get_request(download.assumingMemoryBound(to: WebKitDownload.self))
            let uri = request.flatMap { webkit_uri_request_get_uri($0) }.map { String(cString: $0) } ?? ""
            webkit_download_cancel(download.assumingMemoryBound(to: WebKitDownload.self))
            self?.cancelledDownloadCount += 1
            self?.lastCancelledDownload = uri
            Log.write(.message, "download refused: \(uri)", fields: ["PORTHOLE_EVENT": "download-refused", "PORTHOLE_URL": uri])
        })
        setUpWebProcessExtension(session)
        if let proxyURI { Self.setProxy(proxyURI, ignoring: proxyIgnore, of: session.dataManager) }
    }

    /// Starts a new visitor session: the prepared one (`prepareNextSession()`), or else a new
    /// context over a new in-memory data manager, so no cookie, storage, cache entry, credential
    /// or certificate exception carries over. Views made before on the old context keep it until
    /// they are dismantled; make new ones afterwards.
    public func renewSession() {
        let old = current
        let prepared = next != nil
        current = next ?? WebSession.ephemeral()
        next = nil
        if !prepared { setUp(current) }
        old.release()
        Log.info("new visitor session", fields: ["PORTHOLE_EVENT": "session-renewed", "PORTHOLE_PREPARED": prepared ? "1" : "0"])
    }

    /// Makes the next visitor's session ahead: a new context over a new in-memory data manager,
    /// set up as every context is. `renewSession()` then takes it; `discardNextSession()` lets it go.
    public func prepareNextSession() {
        guard next == nil else { return }
        let session = WebSession.ephemeral()
        setUp(session)
        next = session
    }

    /// Lets the prepared session go (views on it must be dismantled first).
    public func discardNextSession() {
        next?.release()
        next = nil
    }

    public var context: UnsafeMutablePointer<WebKitWebContext> { current.context }
    /// The prepared session's context, made now if there is none.
    public var nextContext: UnsafeMutablePointer<WebKitWebContext> {
        prepareNextSession()
        return next!.context
    }
    public var nextDataManager: UnsafeMutablePointer<WebKitWebsiteDataManager>? { next?.dataManager }

    public var dataManager: UnsafeMutablePointer<WebKitWebsiteDataManager> { current.dataManager }

    /// Routes every HTTP(S) request through `proxyURI` (e.g. `http://127.0.0.1:8080`) except to
    /// the hosts in `ignoring`; nil restores the system's proxy settings.
    public func setProxy(_ proxyURI: String?, ignoring: [String] = []) {
        self.proxyURI = proxyURI
        proxyIgnore = ignoring
        for session in [current, next].compactMap({ $0 }) { Self.setProxy(proxyURI, ignoring: ignoring, of: session.dataManager) }
    }

    private static func setProxy(_ proxyURI: String?, ignoring: [String], of dataManager: UnsafeMutablePointer<WebKitWebsiteDataManager>) {
        guard let proxyURI else {
            webkit_website_data_manager_set_network_proxy_settings(dataManager, WEBKIT_NETWORK_PROXY_MODE_DEFAULT, nil)
            return
        }
        let settings = withCStringArray(ignoring) { webkit_network_proxy_settings_new(proxyURI, ignoring.isEmpty ? nil : $0) }
        defer { webkit_network_proxy_settings_free(settings) }
        webkit_website_data_manager_set_network_proxy_settings(dataManager, WEBKIT_NETWORK_PROXY_MODE_CUSTOM, settings)
    }

    /// Answers a `porthole:` request with the page Core builds, or a not-found error.
    fileprivate func serve(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>) {
        let uri = String(cString: webkit_uri_scheme_request_get_uri(request))
        guard let html = servedPages.last(where: { $0.uri == uri })?.html ?? PortholePage.page(for: uri, sites: sites, problems: problems, namesWhomToAsk: namesWhomToAsk) else {
            let error = g_error_new_literal(g_io_error_quark(), gint(G_IO_ERROR_NOT_FOUND.rawValue), tr("No such Porthole page: {url}").filled(["url": uri]))
            webkit_uri_scheme_request_finish_error(request, error)
            g_error_free(error)
            return
        }
        let bytes = Array(html.utf8)
        let gbytes = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }  // g_bytes_new copies
        let stream = g_memory_input_stream_new_from_bytes(gbytes)
        webkit_uri_scheme_request_finish(request, stream, gint64(bytes.count), "text/html; charset=utf-8")
        g_object_unref(stream)
        g_bytes_unref(gbytes)
    }

    /// Accept-Language and `navigator.languages` in the languages Porthole speaks (the UI's, or
    /// `[Browser] languages=`); with none (the "C" locale) WebKit keeps its default.
    private static func setPreferredLanguages(_ languages: [String], of context: UnsafeMutablePointer<WebKitWebContext>) {
        guard !languages.isEmpty else { return }
        withCStringArray(languages) { webkit_web_context_set_preferred_languages(context, $0) }
    }

    private static func xdgDirectory(_ base: UnsafePointer<gchar>?) -> String {
        (base.map { String(cString: $0) } ?? "/tmp") + "/porthole"
    }

    private static func newDataManager(base: String, cache: String) -> UnsafeMutablePointer<WebKitWebsiteDataManager> {
        // g_object_new is variadic; WebKit's C API has no plain constructor taking directories.
        let object = porthole_website_data_manager_new(base, cache)
        return object!
    }

    isolated deinit {
        current.release()
        next?.release()
        contentManagerOwner.release()
    }
}
