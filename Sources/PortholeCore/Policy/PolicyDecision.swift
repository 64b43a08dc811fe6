// The inputs and outputs of a policy decision: what is asked, and the answer with its reason.

/// How a navigation came about; decides the rules for `data:` URLs.
public enum NavigationKind: Sendable, Equatable {
    /// The page of a window (a link, a typed address, a redirect of either).
    case mainFrame
    /// An `<iframe>` or `<frame>` inside a page.
    case subframe
    /// `target="_blank"` or `window.open`: a new top-level page.
    case newWindow
}

/// One URL to decide on.
public struct PolicyRequest: Sendable, Equatable {
    /// The URL, as WebKit or the user gave it; canonicalised before matching.
    public var url: String
    public var kind: NavigationKind
    /// The page that started the navigation or created the frame, when known. `data:` frames
    /// and `blob:` URLs are allowed only when it is allowed.
    public var sourceURL: String?

    public init(url: String, kind: NavigationKind = .mainFrame, sourceURL: String? = nil) {
        self.url = url
        self.kind = kind
        self.sourceURL = sourceURL
    }
}

public enum Verdict: Sendable, Equatable {
    case allowed
    case blocked
}

/// The answer: allowed or blocked, the filter that decided, and a sentence for people.
public struct PolicyDecision: Sendable, Equatable, CustomStringConvertible {
    public let verdict: Verdict
    /// The deciding filter as written; nil when no filter matched and a rule decided.
    public let filter: String?
    let cause: Cause

    /// What the sentence says; filter decisions build it only when asked, which keeps the
    /// decision itself free of string work.
    enum Cause: Sendable {
        case allowFilter(site: String?)
        case blockFilter
        /// The block filter `*`: nothing more specific matched.
        case wildcardBlock
        /// A rule's sentence, and the same in the visitor's language for the Blocked page.
        case sentence(String, shown: String? = nil)
    }

    public init(verdict: Verdict, filter: String?, reason: String, shown: String? = nil) {
        self.verdict = verdict
        self.filter = filter
        cause = .sentence(reason, shown: shown)
    }

    init(verdict: Verdict, filter: String?, cause: Cause) {
        self.verdict = verdict
        self.filter = filter
        self.cause = cause
    }

    public var isAllowed: Bool { verdict == .allowed }

    /// A sentence for the blocked page and the logs, e.g.
    /// `blocked by filter "*": not on the approved list`.
    public var reason: String {
        let quoted = "filter \"\(filter ?? "")\""
        switch cause {
        case .allowFilter(let site): return "allowed by \(quoted)" + (site.map { " (site \"\($0)\")" } ?? "")
        case .blockFilter: return "blocked by \(quoted)"
        case .wildcardBlock: return "blocked by \(quoted): not on the approved list"
        case .sentence(let sentence, _): return sentence
        }
    }

    public var description: String { reason }

    /// `reason` in the visitor's language, for the Blocked page (the logs and `porthole policy
    /// check` keep `reason`).
    public var localizedReason: String {
        let filter = self.filter ?? ""
        switch cause {
        case .allowFilter(let site?):
            return tr("allowed by filter \"{filter}\" (site \"{site}\")")
                .replacing("{filter}", with: filter).replacing("{site}", with: site)
        case .allowFilter(nil): return tr("allowed by filter \"{filter}\"").replacing("{filter}", with: filter)
        case .blockFilter: return tr("blocked by filter \"{filter}\"").replacing("{filter}", with: filter)
        case .wildcardBlock:
            return tr("blocked by filter \"{filter}\": not on the approved list").replacing("{filter}", with: filter)
        case .sentence(let sentence, let shown): return shown ?? sentence
        }
    }

    public static func == (lhs: PolicyDecision, rhs: PolicyDecision) -> Bool {
        lhs.verdict == rhs.verdict && lhs.filter == rhs.filter && lhs.reason == rhs.reason
    }

    public static func allowed(_ reason: String, filter: String? = nil) -> PolicyDecision {
        PolicyDecision(verdict: .allowed, filter: filter, reason: reason)
    }

    public static func blocked(_ reason: String, shown: String? = nil, filter: String? = nil) -> PolicyDecision {
        PolicyDecision(verdict: .blocked, filter: filter, reason: reason, shown: shown)
    }
}
