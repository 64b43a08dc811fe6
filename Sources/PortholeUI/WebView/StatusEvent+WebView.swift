// The view's events that `porthole status` counts, in Core's terms.
import PortholeCore

extension StatusEvent {
    /// The status event for a view event, or nil when the status does not count it.
    public init?(_ event: WebViewEvent) {
        switch event {
        case .loadStarted: self = .loadStarted
        case .loadCommitted(let uri): self = .committed(uri: uri)
        case .title(let title): self = .title(title)
        case .loadFailed(let uri, _): self = .errorPageShown(uri: uri)
        case .navigationBlocked(let uri, let reason, let shown): self = .refused(uri: uri, reason: reason, shown: shown)
        case .webProcessTerminated: self = .crashRecovered
        case .webProcessHung: self = .hangEnded
        case .visitorSessionStarted: self = .visitorSessionStarted
        default: return nil
        }
    }
}
