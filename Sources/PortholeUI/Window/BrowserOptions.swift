// What a window needs to know from the configuration, and how it comes from a loaded one.
import GLibBridge
import PortholeCore

/// What a window needs to know from the configuration.
public struct BrowserOptions {
    public var sites: SiteList
    public var settings: WebViewSettings
    /// Decides every navigation; the site policy plugs in here.
    public var decide: @Sendable (PolicyRequest) -> PolicyDecision
    /// Load `http://` sites and typed URLs over `https://`.
    public var httpsOnly = false
    /// What pages may do: context menu, printing, permissions, certificate exceptions, recovery.
    public var rules = BrowsingRules()
    /// Kiosk mode, or nil for the desktop browser. Fixed for the window's life: a configuration
    /// reload does not turn a kiosk into a desktop browser or back.
    public var kiosk: KioskSettings?
    /// The on-screen keyboard, its mode resolved for kiosk or desk; off unless set.
    public var keyboard = KeyboardSettings(mode: .off)
    /// Whether two fingers (touchscreen or touchpad pinch) zoom the page.
    public var pinchZoom = true
    /// Where the keyboard's `auto` mode reads the input devices from; nil: GDK's default seat.
    public var inputDevices: (@MainActor () -> any InputDeviceSource)?
    /// `swipe-navigation=auto`: the window turns `settings.backForwardGestures` on while a
    /// touchpad or touchscreen is connected, instead of taking it as given.
    public var swipesFollowDevices = false
    /// `[Accessibility]`: the read-aloud mode's keys and rate.
    public var speech = SpeechSettings()
    /// Where speech goes; tests and `make bench` write WAV files instead.
    public var speechOutput: SpeechOutput = .speakers
    /// The clock kiosk mode reads and sets its timers on; tests hand in a `ManualClock`.
    public var clock: any Clock = GLibClock.shared
    /// `[Accessibility]`: More time, speech's idle factor, the visitor controls' defaults.
    public var accessibility = AccessibilitySettings()
    /// Where the idle warning's tone plays (a GStreamer sink description); tests write a file.
    public var warningSoundSink = "autoaudiosink"

    public init(sites: SiteList, settings: WebViewSettings = WebViewSettings(),
                decide: @escaping @Sendable (PolicyRequest) -> PolicyDecision) {
        self.sites = sites
        self.settings = settings
        self.decide = decide
    }

    public var homeURL: String { sites.home?.url ?? PortholePage.startURL }
}

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
        accessibility = configuration.accessibility
        speech = configuration.speech
    }
}

extension WindowSettings {
    /// What the window session needs from the window's options.
    init(_ options: BrowserOptions) {
        self.init(sites: options.sites, homeURL: options.homeURL)
        httpsOnly = options.httpsOnly
        reloadsAfterCrash = options.rules.reloadsAfterCrash
        printing = options.rules.printing
        zoom = options.settings.zoom
    }
}
