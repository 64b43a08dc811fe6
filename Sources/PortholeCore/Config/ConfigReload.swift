// What a configuration reload (SIGHUP, the reload-config action) runs with, given the running one.

public enum ConfigReload {
    public enum Outcome: Sendable, Equatable {
        /// Keep the running configuration; the reason goes to the log.
        case keep(reason: String)
        /// Run with this configuration; each note goes to the log.
        case apply(Configuration, notes: [String])
    }

    /// A reload must never widen what the running browser allows by accident:
    /// - a file still changing after several reads (a tool rewriting it in place) is not read
    ///   at all: the running configuration stays, and the next reload tries again;
    /// - kiosk mode, once on, stays on until Porthole restarts: a file cut short before its
    ///   `[Kiosk]` group, or edited by mistake, must not turn a kiosk into a desktop browser.
    public static func decide(_ result: ConfigLoadResult, running: Configuration) -> Outcome {
        if result.isTransient {
            let files = result.problems.filter(\.isTransient).map(\.file).joined(separator: ", ")
            return .keep(reason: "configuration not reloaded: \(files) changed while being read; keeping the running configuration")
        }
        var next = result.effectiveConfiguration
        var notes: [String] = []
        if running.kiosk.enabled, !next.kiosk.enabled {
            next.kiosk.enabled = true
            notes.append("kiosk mode stays on until Porthole restarts")
        }
        return .apply(next, notes: notes)
    }
}
