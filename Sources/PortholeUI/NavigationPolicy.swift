// How the window's options come from the configuration, and how WebKit's navigation questions
// become site-policy requests.
import GLibBridge
import PortholeCore

extension BrowserOptions {
    /// The options for a loaded configuration, with `policy` deciding every navigation.
    public init(configuration: Configuration, policy: SitePolicy) {
        let browser = configuration.browser
        self.init(sites: configuration.sites,
                  settings: WebViewSettings(javascript: browser.javascript, zoom: browser.zoom,
                                            userAgentSuffix: browser.userAgentSuffix.isEmpty ? nil : browser.userAgentSuffix),
                  decide: { query in NavigationPolicy.answer(query, policy: policy) })
        httpsOnly = browser.httpsOnly
        settings.backForwardGestures = browser.swipeNavigation == .on
        swipesFollowDevices = browser.swipeNavigation == .auto
        rules = BrowsingRules(configuration: configuration)
        kiosk = configuration.kiosk.enabled ? configuration.kiosk : nil
        keyboard = configuration.kiosk.keyboard
        keyboard.mode = configuration.kiosk.keyboard.mode(kiosk: configuration.kiosk.enabled)
        pinchZoom = browser.pinchZoom ?? !configuration.kiosk.enabled
    }
}

public enum NavigationPolicy {
    /// The site policy's answer to a WebKit navigation question.
    ///
    /// WebKitGTK 2.50 does not say whether a navigation action targets the main frame or a
    /// subframe. Porthole's own top-level loads (typed, Open menu, Home, reload, back/forward) are
    /// known to be main-frame; new windows are new top-level pages; any other navigation a page
    /// starts is decided as a frame of that page — which only matters for `data:` URLs, and WebKit
    /// itself refuses page-initiated top-level `data:` navigations.
    public static func request(for query: NavigationQuery) -> PolicyRequest {
        let kind: NavigationKind
        switch query.kind {
        case .newWindow: kind = .newWindow
        case .navigation: kind = query.isTopLevelRequest ? .mainFrame : .subframe
        }
        return PolicyRequest(url: query.uri, kind: kind, sourceURL: query.isTopLevelRequest ? nil : query.sourceURI)
    }

    public static func answer(_ query: NavigationQuery, policy: SitePolicy) -> NavigationAnswer {
        let decision = policy.decide(request(for: query))
        return decision.isAllowed ? .allow : .block(reason: decision.reason)
    }
}
