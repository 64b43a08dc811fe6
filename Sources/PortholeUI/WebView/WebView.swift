// The WebView representable: a Swift value describing a WebKitWebView, and what it should show.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Something for the view to show. Each request carries its own `id`, so asking for the same
/// URL twice loads it twice, while re-applying an unchanged value loads nothing.
public struct WebContent: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case url(String)
        case html(String, baseURI: String?)
        case file(path: String)
        case bytes([UInt8], mimeType: String, baseURI: String?)
    }

    public let id: UInt64
    public let kind: Kind

    public init(id: UInt64, _ kind: Kind) {
        self.id = id
        self.kind = kind
    }
}

/// WebKitSettings that Porthole exposes.
public struct WebViewSettings: Equatable, Sendable {
    public var javascript = true
    public var zoom = 1.0
    public var userAgentSuffix: String?
    public var backForwardGestures = true

    public init(javascript: Bool = true, zoom: Double = 1.0, userAgentSuffix: String? = nil) {
        self.javascript = javascript
        self.zoom = zoom
        self.userAgentSuffix = userAgentSuffix
    }
}

public struct WebView: WidgetRepresentable {
    public var engine: BrowserEngine
    public var content: WebContent?
    public var settings: WebViewSettings
    /// Where the error and Blocked pages' Home buttons lead.
    public var homeURL: String?
    /// What pages may do: read when WebKit asks (context menu, print, permission, certificate …).
    public var rules: BrowsingRules
    /// Told what the page and the view do, in Core's words.
    public var onEvent: @MainActor (PageNotice) -> Void
    /// The site policy: asked for every navigation, frame, new window, redirect hop and response,
    /// Porthole's own loads included.
    public var decide: @Sendable (PolicyRequest) -> PolicyDecision
    /// The clock the page session's times are read from and its timers set on (read once, at make).
    public var clock: any Clock
    /// Made on the engine's prepared context (the next kiosk visitor's, see `prepareNextSession`)
    /// rather than the current one; read once, at make.
    public var forNextVisitor = false

    public init(engine: BrowserEngine, content: WebContent?, settings: WebViewSettings = WebViewSettings(), homeURL: String?,
                rules: BrowsingRules = BrowsingRules(), clock: any Clock = GLibClock.shared,
                onEvent: @escaping @MainActor (PageNotice) -> Void,
                decide: @escaping @Sendable (PolicyRequest) -> PolicyDecision) {
        self.engine = engine
        self.content = content
        self.settings = settings
        self.homeURL = homeURL
        self.rules = rules
        self.onEvent = onEvent
        self.decide = decide
        self.clock = clock
    }

    public func makeCoordinator() -> WebViewCoordinator {
        WebViewCoordinator(parent: self)
    }

    public func makeWidget(context: RepresentableContext<WebViewCoordinator>) -> UnsafeMutablePointer<GtkWidget> {
        let widget = porthole_web_view_new(forNextVisitor ? engine.nextContext : engine.context, engine.userContentManager)!
        let view = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: WebKitWebView.self)
        context.coordinator.attach(view, connections: context.connections)
        return widget
    }

    public func updateWidget(_ widget: UnsafeMutablePointer<GtkWidget>, context: RepresentableContext<WebViewCoordinator>) {
        let coordinator = context.coordinator
        coordinator.parent = self
        if settings != coordinator.appliedSettings {
            coordinator.apply(settings)
        }
        if let content, content != coordinator.appliedContent {
            coordinator.appliedContent = content
            coordinator.load(content)
        }
    }

    public static func dismantleWidget(_ widget: UnsafeMutablePointer<GtkWidget>, coordinator: WebViewCoordinator) {
        coordinator.detach()
        WebViewInternalChildren.release(of: widget)
    }
}
