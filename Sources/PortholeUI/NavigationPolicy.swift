// How the window's options come from the configuration.
import GLibBridge
import PortholeCore

extension BrowserOptions {
    /// The options for a loaded configuration, with `policy` deciding every navigation.
    public init(configuration: Configuration, policy: SitePolicy) {
        let browser = configuration.browser
        self.init(sites: configuration.sites,
                  settings: WebViewSettings(javascript: browser.javascript, zoom: browser.zoom,
                                            userAgentSuffix: browser.userAgentSuffix.isEmpty ? nil : browser.userAgentSuffix),
                  decide: { policy.decide($0) })
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
