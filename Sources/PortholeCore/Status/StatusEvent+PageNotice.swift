// The page notices that `porthole status` counts, in the status record's terms.

extension StatusEvent {
    /// The status event for a page notice, or nil when the status does not count it.
    public init?(_ notice: PageNotice) {
        switch notice {
        case .loadStarted: self = .loadStarted
        case .loadCommitted(let uri): self = .committed(uri: uri)
        case .title(let title): self = .title(title)
        case .loadFailed(let uri, _): self = .errorPageShown(uri: uri)
        case .navigationBlocked(let uri, let reason, let shown): self = .refused(uri: uri, reason: reason, shown: shown)
        case .webProcessTerminated: self = .crashRecovered
        case .webProcessHung: self = .hangEnded
        case .visitorSessionStarted: self = .visitorSessionStarted
        case .loadFinished, .refused, .progress, .uri, .loading, .history, .historyEmpty, .permissionAnswered: return nil
        }
    }
}
