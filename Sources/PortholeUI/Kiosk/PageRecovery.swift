// Brings a page back by itself: after a network failure (kiosk mode) and after a web process crash.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Owned by one WebViewCoordinator. Core's RetryBackoff says when; this object shows Core's
/// countdown page, updates its countdown line each second, reloads when the time is up, and
/// reloads at once when GNetworkMonitor says the network is back.
@MainActor
final class PageRecovery {
    private weak var coordinator: WebViewCoordinator?
    private var networkBackoff = RetryBackoff.network
    private var crashBackoff = RetryBackoff.crash

    private struct Pending {
        let countdown: PortholePage.Countdown
        /// Monotonic seconds at which to reload.
        let deadline: Double
        var shownSeconds: Int
    }
    private var pending: Pending?
    private var ticker: ScheduledSource?
    private let monitorConnections = SignalConnections()

    init(coordinator: WebViewCoordinator) {
        self.coordinator = coordinator
    }

    /// Whether a reload is scheduled, and the countdown's seconds (for tests and the log).
    var secondsLeft: Int? { pending?.shownSeconds }

    static func now() -> Double { Double(g_get_monotonic_time()) / 1_000_000 }

    // MARK: Failures

    /// A load failed for want of network or server: show the retry page, try again later.
    func networkFailed(uri: String, message: String) {
        guard let coordinator else { return }
        let delay = networkBackoff.delay(afterFailureAt: Self.now())
        Log.write(.message, "network failure, retrying in \(delay) s: \(uri)",
                  fields: ["PORTHOLE_EVENT": "retry-scheduled", "PORTHOLE_URL": uri, "PORTHOLE_DELAY": String(delay)])
        coordinator.showPage(PortholePage.retrying(url: uri, message: message, secondsLeft: delay, homeURL: coordinator.parent.homeURL),
                             as: uri)
        schedule(.retry, in: delay)
        watchNetwork()
    }

    /// The web process ended: reload at once, or after repeated crashes wait with the crash page.
    func crashed(uri: String) {
        guard let coordinator else { return }
        let delay = crashBackoff.delay(afterFailureAt: Self.now())
        Log.write(.message, "reloading after the web process ended, in \(delay) s: \(uri)",
                  fields: ["PORTHOLE_EVENT": "crash-recovery", "PORTHOLE_URL": uri, "PORTHOLE_DELAY": String(delay)])
        if delay == 0 {
            cancel()
            coordinator.reload()
            return
        }
        coordinator.showPage(PortholePage.crashed(url: uri, secondsLeft: delay, homeURL: coordinator.parent.homeURL), as: uri)
        schedule(.reload, in: delay)
    }

    // MARK: What the view does meanwhile

    /// A load that is not one of Porthole's pages started (a link, Home, the reload itself):
    /// whatever was pending is moot.
    func realLoadStarted() {
        cancel()
    }

    /// A real page committed: the server answered, so the network back-off starts again.
    func realLoadCommitted() {
        networkBackoff.reset()
    }

    func stop() {
        cancel()
        monitorConnections.disconnectAll()
    }

    // MARK: The countdown

    private func schedule(_ countdown: PortholePage.Countdown, in seconds: Int) {
        cancel()
        pending = Pending(countdown: countdown, deadline: Self.now() + Double(seconds), shownSeconds: seconds)
        scheduleTick()
    }

    /// Wakes when the shown second next changes: the page was built with the first value,
    /// later values are written into it.
    private func scheduleTick() {
        guard let pending else { return }
        let delay = Countdown.untilNextChange(deadline: pending.deadline, now: Self.now())
        ticker = MainLoop.after(milliseconds: Countdown.milliseconds(delay)) { [weak self] in self?.tick() }
    }

    private func tick() {
        ticker = nil
        guard var pending, let coordinator else { return }
        let now = Self.now()
        if now >= pending.deadline {
            fire()
            return
        }
        let seconds = Countdown.secondsLeft(until: pending.deadline, now: now)
        if seconds != pending.shownSeconds {
            pending.shownSeconds = seconds
            self.pending = pending
            coordinator.runPortholeScript(PortholePage.countdownScript(PortholePage.countdownText(pending.countdown, secondsLeft: seconds)))
        }
        scheduleTick()
    }

    private func fire() {
        guard pending != nil, let coordinator else { return }
        cancel()
        // The view shows Porthole's page under the failed URI; reloading loads that URI again.
        coordinator.reload()
    }

    private func cancel() {
        pending = nil
        ticker?.cancel()
        ticker = nil
    }

    /// GNetworkMonitor's "network-changed": when the network comes back, a pending retry runs now.
    private func watchNetwork() {
        guard monitorConnections.count == 0, let monitor = g_network_monitor_get_default() else { return }
        monitorConnections.connect(UnsafeMutableRawPointer(monitor), "network-changed", .enumValue { [weak self] available in
            guard available != 0, let self, self.pending?.countdown == .retry else { return }
            Log.info("network available: retrying now", fields: ["PORTHOLE_EVENT": "network-available"])
            self.fire()
        })
    }
}
