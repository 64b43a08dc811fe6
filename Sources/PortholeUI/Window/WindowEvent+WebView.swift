// The view's events as the window session hears them.
import CWebKitGtk
import GLibBridge
import PortholeCore

extension WindowEvent {
    /// The window's event for a view event at `now`, or nil when the window has nothing to do with it.
    init?(_ event: WebViewEvent, at now: Double) {
        switch event {
        case .loadStarted: self = .loadStarted
        case .loadCommitted(let uri): self = .loadCommitted(uri: uri, at: now)
        case .loadFailed: self = .loadFailed
        case .navigationBlocked(let uri, let reason, let shown): self = .navigationBlocked(uri: uri, reason: reason, shown: shown, at: now)
        case .progress(let value): self = .progress(value)
        case .title(let title): self = .title(title)
        case .uri(let uri): self = .uri(uri)
        case .loading(let loading): self = .loading(loading)
        case .history(let back, let forward): self = .history(canGoBack: back, canGoForward: forward)
        case .historyEmpty(let direction): self = .historyEmpty(direction)
        case .webProcessTerminated: self = .webProcessTerminated
        case .refused(let what): self = .refused(what, at: now)
        case .loadFinished, .permissionAnswered, .webProcessHung, .visitorSessionStarted: return nil
        }
    }
}
