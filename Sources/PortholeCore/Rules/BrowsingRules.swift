// What the web view lets a page do, in kiosk mode and out of it: one value decided from the configuration.

/// The web view's lockdown. Desktop mode keeps the browser's ordinary conveniences (context
/// menu, printing, file uploads); kiosk mode takes away everything that leads off the page.
/// Some things hold in every mode: no developer tools, no downloads, permissions only as granted,
/// certificate errors only for the admin's exceptions, and a crashed page reloads by itself.
public struct BrowsingRules: Sendable, Equatable {
    /// WebKit's own context menu (Open Link in New Window, Inspect Element, …).
    public var contextMenu: Bool
    /// `window.print()` and the print dialog.
    public var printing: Bool
    /// The file chooser behind `<input type=file>`.
    public var fileChooser: Bool
    /// After a network failure the error page counts down and retries by itself.
    public var retriesNetworkFailures: Bool
    /// After a web process crash the page reloads by itself.
    public var reloadsAfterCrash: Bool
    /// `[Privacy] permissions=`.
    public var privacy: PrivacySettings
    /// `[Browser] tls-exceptions=`.
    public var tlsExceptions: [String]
    /// Drops from other applications are refused outright (kiosk mode); else decided like a typed address.
    public var refusesDrops = false
    /// Seconds a page may stay unresponsive before its web process is ended; nil never.
    public var unresponsiveTimeout: Double?
    /// The configuration has problems and everything is blocked: pages say so.
    public var configurationBroken = false
    /// Porthole's pages say whom to ask to add a site: at a desk, where the person who set the
    /// computer up is someone its user knows. A kiosk's visitor has nobody to ask that of.
    public var namesWhomToAsk = false

    public init(contextMenu: Bool = true, printing: Bool = true, fileChooser: Bool = true,
                retriesNetworkFailures: Bool = false, reloadsAfterCrash: Bool = true,
                privacy: PrivacySettings = PrivacySettings(), tlsExceptions: [String] = []) {
        self.contextMenu = contextMenu
        self.printing = printing
        self.fileChooser = fileChooser
        self.retriesNetworkFailures = retriesNetworkFailures
        self.reloadsAfterCrash = reloadsAfterCrash
        self.privacy = privacy
        self.tlsExceptions = tlsExceptions
    }

    /// Developer tools and the inspector are never available: they would let a visitor run
    /// script in any approved page and read what earlier visitors left in it.
    public var developerTools: Bool { false }
    /// Porthole shows pages; it never saves files.
    public var downloads: Bool { false }

    /// The rules for a configuration.
    ///
    /// Network failures are retried by themselves only in kiosk mode: nobody is there to press
    /// Retry, and the page must come back when the network does. At a desk the error page waits
    /// for its reader, as other browsers do.
    public init(configuration: Configuration) {
        let kiosk = configuration.kiosk
        self.init(contextMenu: !kiosk.enabled,
                  printing: !kiosk.enabled || kiosk.printing,
                  fileChooser: !kiosk.enabled,
                  retriesNetworkFailures: kiosk.enabled,
                  reloadsAfterCrash: true,
                  privacy: configuration.privacy,
                  tlsExceptions: configuration.browser.tlsExceptions)
        refusesDrops = kiosk.enabled
        let timeout = configuration.browser.unresponsiveTimeout ?? (kiosk.enabled ? Self.kioskUnresponsiveTimeout : 0)
        unresponsiveTimeout = timeout > 0 ? Double(timeout) : nil
        configurationBroken = configuration.isFailClosed
        namesWhomToAsk = !kiosk.enabled
    }

    /// A kiosk page that stops responding is ended after this many seconds unless configured.
    public static let kioskUnresponsiveTimeout = 15
}

extension Configuration {
    /// Whether website data lives in memory only: `[Privacy] ephemeral`, or a kiosk that resets
    /// visitor sessions (each session then starts with nothing, including the first).
    public var keepsWebsiteDataInMemory: Bool {
        privacy.ephemeral || (kiosk.enabled && kiosk.idleTimeout > 0)
    }
}
