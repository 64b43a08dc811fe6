// Porthole's own pages as values: what the session asks to show, built into HTML by PortholePage.

/// A page Porthole shows itself in place of a refused, failed or crashed load. Served under a
/// `porthole:` URL (never under the refused URL), so it has Porthole's origin, leaves no history
/// entry with a blocked URL, and the header never shows the blocked host.
public enum OwnPage: Sendable, Equatable {
    case blocked(url: String, reason: String)
    /// A download from an allowed site: this browser saves no files (not a refused site).
    case download(url: String)
    /// A failed load; `plain`: the message is already in plain words (a refused port, an
    /// unusable path) and leads the page, rather than being folded away as a technical reason.
    case error(url: String, message: String, plain: Bool = false)
    case certificate(url: String, problems: [String])
    /// A network failure that retries by itself (kiosk mode).
    case retrying(url: String, message: String, seconds: Int)
    /// A crashed page that reloads by itself after `seconds`.
    case crashed(url: String, seconds: Int)
    /// A URL whose load crashed the web process twice in a row: not reloaded again by itself.
    case crashLoop(url: String)
    /// A page Porthole ended twice in a row because it stopped responding (an `alert()` in a
    /// loop): not reloaded again by itself.
    case hangLoop(url: String)

    /// The first path segment of the page's `porthole:` URL (`porthole://blocked/…`).
    public var name: String {
        switch self {
        case .blocked: return "blocked"
        case .download: return "download"
        case .error: return "error"
        case .certificate: return "certificate"
        case .retrying: return "retrying"
        case .crashed, .crashLoop, .hangLoop: return "crashed"
        }
    }

    /// The URL the page is about: what Reload tries again.
    public var url: String {
        switch self {
        case .blocked(let url, _), .download(let url), .error(let url, _, _), .certificate(let url, _), .retrying(let url, _, _),
             .crashed(let url, _), .crashLoop(let url), .hangLoop(let url):
            return url
        }
    }

    /// The page's HTML. `canGoBack`: a page comes before it (else the Blocked, download and error
    /// pages offer no Back); `configurationBroken`: the Blocked page says the browser is not set up correctly.
    /// `namesWhomToAsk`: the Blocked page says whom to ask to add the site (at a desk).
    public func html(homeURL: String?, canGoBack: Bool = true, configurationBroken: Bool = false,
                     namesWhomToAsk: Bool = false) -> String {
        switch self {
        case .blocked(let url, let reason):
            return PortholePage.blocked(url: url, reason: reason, homeURL: homeURL, canGoBack: canGoBack,
                                        configurationBroken: configurationBroken, namesWhomToAsk: namesWhomToAsk)
        case .download(let url): return PortholePage.download(url: url, homeURL: homeURL, canGoBack: canGoBack)
        case .error(let url, let message, let plain):
            return PortholePage.error(url: url, message: message, homeURL: homeURL, canGoBack: canGoBack, plain: plain)
        case .certificate(let url, let problems): return PortholePage.certificateError(url: url, problems: problems, homeURL: homeURL)
        case .retrying(let url, let message, let seconds):
            return PortholePage.retrying(url: url, message: message, secondsLeft: seconds, homeURL: homeURL)
        case .crashed(let url, let seconds): return PortholePage.crashed(url: url, secondsLeft: seconds, homeURL: homeURL)
        case .crashLoop(let url): return PortholePage.crashLoop(url: url, homeURL: homeURL)
        case .hangLoop(let url): return PortholePage.crashLoop(url: url, homeURL: homeURL, hung: true)
        }
    }
}
