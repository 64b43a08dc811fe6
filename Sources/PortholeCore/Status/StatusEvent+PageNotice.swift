// The page notices that `porthole status` counts, in the status record's terms.

extension StatusEvent {
    /// The status event for a page notice, or nil when the status does not count it.
    public init?(_ notice: PageNotice) {
        switch notice {
        case .webProcessTerminated: self = .crashRecovered
        case .webProcessHung: self = .hangEnded
        case .visitorSessionStarted: self = .visitorSessionStarted
        // What the page shows and the refusals the status follows from their owners instead.
        case .loadStarted, .loadCommitted, .title, .loadFailed, .navigationBlocked,
             .loadFinished, .refused, .progress, .uri, .loading, .history, .historyEmpty, .permissionAnswered: return nil
        }
    }
}
