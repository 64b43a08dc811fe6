// systemd's service notification protocol (sd_notify(3)), without libsystemd: where to send and what.

/// Where and how often to tell the service manager about Porthole, read from the environment
/// systemd sets for a `Type=notify` service.
public struct ServiceNotification: Sendable, Equatable {
    /// `NOTIFY_SOCKET`: a datagram socket, by path or (a leading `@`) in the abstract namespace.
    public enum Address: Sendable, Equatable {
        case path(String)
        /// The name without the leading NUL byte.
        case abstract(String)
    }

    public let address: Address
    /// How often to send `WATCHDOG=1`: half of `WATCHDOG_USEC`, as sd_watchdog_enabled(3)
    /// recommends; nil when the watchdog is off or meant for another process (`WATCHDOG_PID`).
    public let watchdogInterval: Milliseconds?

    public typealias Milliseconds = UInt32

    /// Nil when `NOTIFY_SOCKET` is unset, empty or not a path or abstract name (systemd also
    /// allows `vsock:` addresses, which a desktop session never uses).
    public init?(environment: [String: String], pid: Int32) {
        guard let socket = environment["NOTIFY_SOCKET"], socket.count > 1 else { return nil }
        if socket.hasPrefix("@") {
            address = .abstract(String(socket.dropFirst()))
        } else if socket.hasPrefix("/") {
            address = .path(socket)
        } else {
            return nil
        }
        watchdogInterval = Self.watchdogInterval(environment: environment, pid: pid)
    }

    static func watchdogInterval(environment: [String: String], pid: Int32) -> Milliseconds? {
        guard let text = environment["WATCHDOG_USEC"], let usec = UInt64(text), usec > 0 else { return nil }
        if let owner = environment["WATCHDOG_PID"], !owner.isEmpty, owner != String(pid) { return nil }
        let milliseconds = max(1, usec / 2 / 1000)
        return Milliseconds(min(milliseconds, UInt64(Milliseconds.max)))
    }

    /// The messages Porthole sends: one `KEY=value` line each, as in sd_notify(3).
    public enum Message: Sendable, Equatable {
        /// Start-up is done: the first page has loaded (or its error page shows).
        case ready(status: String)
        /// The main loop still runs.
        case watchdog
        /// Shutting down.
        case stopping
        case status(String)

        public var text: String {
            switch self {
            case .ready(let status): "READY=1\nSTATUS=\(Self.line(status))"
            case .watchdog: "WATCHDOG=1"
            case .stopping: "STOPPING=1"
            case .status(let status): "STATUS=\(Self.line(status))"
            }
        }

        /// A status fits on one line: newlines would start new assignments.
        private static func line(_ text: String) -> String {
            String(text.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : Character($0) })
        }
    }
}
