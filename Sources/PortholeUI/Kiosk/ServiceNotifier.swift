// Tells systemd how Porthole is doing (READY=1 after the first page, WATCHDOG=1 keep-alives).
import GLibBridge
import PortholeCore

/// Sends sd_notify(3) datagrams to `NOTIFY_SOCKET`. Keep-alives come from a main-loop timer,
/// so a hung main loop stops them and systemd's watchdog restarts the browser.
@MainActor
public final class ServiceNotifier {
    private let notification: ServiceNotification
    private let socket: UnixDatagramSocket
    private var watchdog: ScheduledSource?
    public private(set) var isReady = false

    /// Nil when the process does not run under a service manager that asked to be notified.
    public init?(environment: [String: String], pid: Int32) {
        guard let notification = ServiceNotification(environment: environment, pid: pid) else { return nil }
        let address: UnixDatagramSocket.Address = switch notification.address {
        case .path(let path): .path(path)
        case .abstract(let name): .abstract(name)
        }
        guard let socket = UnixDatagramSocket(to: address) else { return nil }
        self.notification = notification
        self.socket = socket
    }

    /// Starts the keep-alives when systemd set `WATCHDOG_USEC` (every half of it).
    public func startWatchdog() {
        guard watchdog == nil, let interval = notification.watchdogInterval else { return }
        send(.watchdog)
        watchdog = MainLoop.every(milliseconds: interval) { [weak self] in
            self?.send(.watchdog)
            return self != nil
        }
    }

    /// Start-up is done; sent once.
    public func ready(status: String) {
        guard !isReady else { return }
        isReady = true
        send(.ready(status: status))
        Log.info("told the service manager: ready", fields: ["PORTHOLE_EVENT": "sd-notify-ready"])
    }

    public func stopping() {
        watchdog?.cancel()
        watchdog = nil
        send(.stopping)
    }

    private func send(_ message: ServiceNotification.Message) {
        socket.send(message.text)
    }

    isolated deinit {
        watchdog?.cancel()
        socket.close()
    }
}
