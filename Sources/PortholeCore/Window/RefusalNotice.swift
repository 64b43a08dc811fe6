// When the in-window notice about refused navigations appears, what it says and when it leaves:
// pure logic with time as an input, so the burst rules are table-tested without a display.
import FoundationEssentials

/// What the notice says: the first refused host and how many refusals the burst had.
public struct RefusalNotice: Sendable, Equatable {
    /// The host of the first refused address in the burst (or the address, when it has none).
    public var host: String
    /// Refusals in the burst: links, frames, redirects and new windows the page started.
    public var count: Int
    /// The other hosts refused in the burst, in order, without repeats.
    public var otherHosts: [String]

    public init(host: String, count: Int = 1, otherHosts: [String] = []) {
        self.host = host
        self.count = count
        self.otherHosts = otherHosts
    }

    /// The notice in plain words, for the person in front of the screen.
    public var text: String {
        if otherHosts.isEmpty {
            return tr("{host} is not on this browser's list of sites.").replacing("{host}", with: host)
        }
        return trn("{host} and {count} other site are not on this browser's list of sites.",
                   "{host} and {count} other sites are not on this browser's list of sites.", otherHosts.count)
            .replacing("{host}", with: host)
            .replacing("{count}", with: String(otherHosts.count))
    }
}

/// The notice's life: one notice per burst of refusals from one page.
///
/// A burst is a run of refusals from the same page, each within `burstGap` seconds of the one
/// before. Its first refusal shows the notice; later ones are counted into it without showing it
/// again (a page that retries a blocked frame every second does not flash the notice forever).
/// The notice leaves `visibleFor` seconds after it appeared, or when the page changes.
public struct RefusalNoticeState: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case none
        case show(RefusalNotice)
        /// The notice on screen now counts more refusals.
        case update(RefusalNotice)
        case hide
    }

    public static let defaultVisibleFor = 6.0
    public static let defaultBurstGap = 3.0

    public let visibleFor: Double
    public let burstGap: Double
    /// What is on screen, or nil when the notice is hidden.
    public private(set) var shown: RefusalNotice?
    private var shownAt = 0.0
    /// The burst in progress: the page it comes from and when its last refusal was.
    private var burstPage: String?
    private var lastRefusalAt = -Double.infinity
    private var burst: RefusalNotice?

    public init(visibleFor: Double = defaultVisibleFor, burstGap: Double = defaultBurstGap) {
        self.visibleFor = visibleFor
        self.burstGap = burstGap
    }

    /// A navigation `uri` that `page` started was refused at `now`.
    public mutating func refused(_ uri: String, from page: String?, at now: Double) -> Action {
        let host = Self.host(of: uri)
        let continues = burst != nil && burstPage == page && now - lastRefusalAt <= burstGap
        lastRefusalAt = now
        if continues, var notice = burst {
            notice.count += 1
            if host != notice.host, !notice.otherHosts.contains(host) { notice.otherHosts.append(host) }
            burst = notice
            guard shown != nil else { return .none }
            shown = notice
            return .update(notice)
        }
        let notice = RefusalNotice(host: host)
        burst = notice
        burstPage = page
        shown = notice
        shownAt = now
        return .show(notice)
    }

    /// The view shows another page (a load started or Porthole's own page replaced it): the
    /// notice was about the old one.
    public mutating func pageChanged() -> Action {
        burst = nil
        burstPage = nil
        lastRefusalAt = -.infinity
        guard shown != nil else { return .none }
        shown = nil
        return .hide
    }

    /// The clock reached `now`.
    public mutating func tick(at now: Double) -> Action {
        guard shown != nil, now >= shownAt + visibleFor else { return .none }
        shown = nil
        return .hide
    }

    /// When `tick` next has something to do, or nil while the notice is hidden.
    public var nextTick: Double? { shown == nil ? nil : shownAt + visibleFor }

    /// The host to name (as GLib reads it), or the address itself, shortened, when it has no
    /// host (a `javascript:` or `mailto:` URL).
    static func host(of uri: String) -> String {
        if let host = URLHelpers.host(of: uri) { return host }
        return uri.count > 60 ? String(uri.prefix(57)) + "…" : uri
    }
}
