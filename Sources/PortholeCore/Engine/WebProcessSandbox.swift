// `[Browser] sandbox=`: whether page web processes run in WebKitGTK's bubblewrap sandbox.

/// `[Browser] sandbox=`. In the sandbox a web process has its own mount namespace (the kiosk
/// user's home and most of the file system are not there), a seccomp filter, and no view of other
/// processes; a page that exploits a WebKit bug gets that, not the account. bubblewrap cannot
/// run where the kernel refuses the namespaces it needs (no unprivileged user namespaces and no
/// setuid bwrap).
public enum WebProcessSandbox: String, Sendable, CaseIterable {
    /// In the sandbox where bubblewrap runs; where it cannot, said loudly, and in kiosk mode the
    /// browser fails closed.
    case auto
    /// Always in the sandbox: where bubblewrap cannot run, the browser fails closed.
    case on = "true"
    /// Never (the admin's explicit choice).
    case off = "false"

    /// What the browser does, given whether bubblewrap runs here (and why not) and kiosk mode.
    public func decide(bubblewrap: Availability, kiosk: Bool) -> Decision {
        switch (self, bubblewrap) {
        case (.off, _):
            return Decision(sandboxed: false)
        case (_, .runs):
            return Decision(sandboxed: true)
        case (.on, .unavailable(let reason)):
            return Self.failClosed(reason)
        case (.auto, .unavailable(let reason)):
            if kiosk { return Self.failClosed(reason) }
            return Decision(sandboxed: false, warning: tr("pages run without the web process sandbox: {reason}").filled(["reason": reason]))
        }
    }

    private static func failClosed(_ reason: String) -> Decision {
        Decision(sandboxed: false, problem: tr("the web process sandbox cannot run here ({reason}); set [Browser] sandbox=false to run without it")
            .filled(["reason": reason]))
    }

    /// Whether bubblewrap (and xdg-dbus-proxy, which WebKit starts beside it) can run here.
    public enum Availability: Sendable, Equatable {
        case runs
        case unavailable(reason: String)
    }

    public struct Decision: Sendable, Equatable {
        /// Web processes start in the sandbox.
        public var sandboxed: Bool
        /// A problem: the browser fails closed (as for a broken configuration).
        public var problem: String?
        /// Said on stderr, in the journal and in `porthole status`, and the browser runs.
        public var warning: String?

        public init(sandboxed: Bool, problem: String? = nil, warning: String? = nil) {
            self.sandboxed = sandboxed
            self.problem = problem
            self.warning = warning
        }

        /// `porthole status`'s `sandbox:` line: on, off, or off with the reason.
        public var statusText: String {
            sandboxed ? "on" : (warning ?? problem).map { "off (\($0))" } ?? "off"
        }
    }
}
