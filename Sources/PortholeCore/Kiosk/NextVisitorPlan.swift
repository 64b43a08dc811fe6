// When a kiosk prepares the next visitor's session ahead of the idle reset, and whether the reset
// swaps it in, throws it away or builds a new one as it goes.

public enum NextVisitorEvent: Sendable, Equatable {
    /// The clock at `at`. `resetDue`: when the current visitor's session starts over if nobody
    /// touches it (nil while it is fresh: an untouched kiosk is never reset, so nothing is
    /// prepared); `lastInput`: the visitor's last input (nil once the warning shows).
    case tick(at: Double, resetDue: Double?, lastInput: Double?)
    /// The prepared view has loaded the home page, at `at`.
    case loaded(at: Double)
    /// The prepared view's load failed, or its web process ended.
    case failed
    /// A new configuration (home page, policy, settings) or a new chrome policy: what was
    /// prepared under the old one may show what the new one would not.
    case optionsChanged
    /// The idle reset, now (KioskSession's `.startNewSession`).
    case reset
}

public enum NextVisitorCommand: Sendable, Equatable {
    /// Build a new context over a new in-memory data manager and a web view on it, off screen,
    /// and load the home page in it.
    case prepare
    /// Let the prepared view, context and data manager go (`why` is for the log).
    case discard(why: String)
    /// At the reset: show the prepared view in place of the leaving visitor's.
    case swap
    /// At the reset, with nothing prepared: a new context and view, then load the home page.
    case rebuild
}

/// The next visitor's session, prepared while the current visitor is idle, so the reset shows a
/// home page that has already loaded. Times are monotonic seconds passed in by the caller, who
/// ticks it at `nextWakeUp(after:resetDue:lastInput:)`.
///
/// It prepares `lead` seconds before the reset is due (the idle warning is usually shorter), and
/// never sooner than `quiet` seconds after the visitor's last input (at most half the idle time),
/// so building the session does not compete with what the visitor just asked for. A prepared
/// page older than `maxAge` is thrown away and prepared again when next wanted: a visitor who
/// came back and stayed does not leave the next one a home page from minutes before. One that
/// fails, or takes longer than `loadLimit`, is thrown away, and this visitor's reset builds the
/// new session as it goes (as before) rather than trying again and again.
public struct NextVisitorPlan: Sendable, Equatable {
    public static let lead = 20.0
    public static let quiet = 2.0
    public static let maxAge = 60.0
    public static let loadLimit = 15.0

    public enum State: Sendable, Equatable {
        case none
        /// Building since `since`: the home page is still loading.
        case preparing(since: Double)
        /// The home page loaded at `loadedAt`.
        case ready(loadedAt: Double)
    }

    public private(set) var state: State = .none
    /// This visitor's preparation failed: their reset rebuilds.
    public private(set) var failedThisVisit = false

    public init() {}

    public mutating func handle(_ event: NextVisitorEvent) -> [NextVisitorCommand] {
        switch event {
        case .tick(let now, let resetDue, let lastInput): return tick(at: now, resetDue: resetDue, lastInput: lastInput)
        case .loaded(let now):
            guard case .preparing = state else { return [] }
            state = .ready(loadedAt: now)
            return []
        case .failed:
            guard state != .none else { return [] }
            state = .none
            failedThisVisit = true
            return [.discard(why: "failed")]
        case .optionsChanged:
            // The new options may load where the old ones failed: the next tick may prepare again.
            failedThisVisit = false
            guard state != .none else { return [] }
            state = .none
            return [.discard(why: "options changed")]
        case .reset:
            // A view still loading the home page is as untouched as a loaded one, and ahead of a new one.
            let prepared = state != .none
            state = .none
            failedThisVisit = false
            return [prepared ? .swap : .rebuild]
        }
    }

    /// When the next visitor's session should start to be prepared, for a reset due at `resetDue`.
    static func prepareAt(resetDue: Double, lastInput: Double?) -> Double {
        let early = resetDue - lead
        guard let lastInput else { return early }
        return max(early, lastInput + min(quiet, max(0, resetDue - lastInput) / 2))
    }

    private mutating func tick(at now: Double, resetDue: Double?, lastInput: Double?) -> [NextVisitorCommand] {
        var out: [NextVisitorCommand] = []
        switch state {
        case .preparing(let since) where now >= since + Self.loadLimit:
            state = .none
            failedThisVisit = true
            out.append(.discard(why: "took too long"))
        case .ready(let loadedAt) where now >= loadedAt + Self.maxAge:
            state = .none
            out.append(.discard(why: "stale"))
        default:
            break
        }
        if state == .none, !failedThisVisit, let resetDue, now >= Self.prepareAt(resetDue: resetDue, lastInput: lastInput) {
            state = .preparing(since: now)
            out.append(.prepare)
        }
        return out
    }

    /// When `handle(.tick)` next has something to do, or nil while nothing can happen.
    public func nextWakeUp(resetDue: Double?, lastInput: Double?) -> Double? {
        switch state {
        case .preparing(let since): return since + Self.loadLimit
        case .ready(let loadedAt): return loadedAt + Self.maxAge
        case .none:
            guard !failedThisVisit, let resetDue else { return nil }
            return Self.prepareAt(resetDue: resetDue, lastInput: lastInput)
        }
    }
}

extension NextVisitorEvent {
    /// What a notice of the prepared (off-screen) view tells the plan, at `now`: loaded, failed,
    /// or nothing yet. A Blocked or error page in place of the home page is a failure: the reset
    /// then loads the home page anew, as it did before anything was prepared.
    public init?(preparedView notice: PageNotice, at now: Double) {
        switch notice {
        case .loadFinished: self = .loaded(at: now)
        case .loadFailed, .webProcessTerminated, .webProcessHung: self = .failed
        case .navigationBlocked(_, _, let shown) where shown: self = .failed
        default: return nil
        }
    }
}
