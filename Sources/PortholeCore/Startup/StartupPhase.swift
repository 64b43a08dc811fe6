// Where the browser's start-up stands, and what each start-up signal does next: a reducer, not flags.

/// Start-up runs each stage once per process, in this order; GApplication's signals (this process's
/// own options, registering on the bus, each command line, `activate`) arrive as events, and the
/// application carries out the steps they answer with.
public enum StartupPhase: Equatable, Sendable {
    /// Nothing is read yet.
    case unprepared
    /// The configuration is read and the environment set from it; no engine yet (GTK could not
    /// start before GApplication registered, or another Porthole runs).
    case prepared
    /// The engine runs, and a window made before GApplication registered loads this process's
    /// own page: it is not the application's window yet.
    case prestarted
    /// The engine runs; the window, while there is one, is the application's.
    case running

    /// Whether the engine has been created (a configuration reload then reaches it).
    public var hasEngine: Bool { self == .prestarted || self == .running }

    public mutating func handle(_ event: StartupEvent) -> [StartupStep] {
        switch (self, event) {
        case (.unprepared, .ownOptions):
            self = .prepared
            return [.prepare, .startEarly]
        case (.prepared, .startedEarly):
            self = .prestarted
            return []
        case (.prestarted, .registered(isRemote: true)):
            // Another Porthole runs: this process hands its command line over and exits, so
            // the page it started must not load here too. Its engine stays, without a window.
            self = .running
            return [.dropEarlyStart]
        case (.unprepared, .commandLine):
            self = .running
            return [.prepare, .startEngine]
        case (.prepared, .commandLine):
            self = .running
            return [.startEngine]
        case (.prestarted, .commandLine(let isRemote, let givesSettings)):
            // The early window was made for this process's own command line: it loads that page already.
            return isRemote ? (givesSettings ? [.sayConfigurationStays] : []) : [.keepEarlyPage]
        case (.running, .commandLine(isRemote: true, givesSettings: true)):
            return [.sayConfigurationStays]
        case (.prestarted, .windowRequested(let hasWindow)):
            self = .running
            return [hasWindow ? .attachEarlyWindow : .makeWindow]
        case (.running, .windowRequested(let hasWindow)):
            return [hasWindow ? .presentWindow : .makeWindow]
        default:
            return []
        }
    }
}

public enum StartupEvent: Equatable, Sendable {
    /// This process's own options are read and make a usable command line, before GApplication
    /// registers on the bus.
    case ownOptions
    /// The engine and the early window are made (the display opened, and no other Porthole runs).
    case startedEarly
    /// GApplication has registered on the bus; `isRemote`: another Porthole owns the name.
    case registered(isRemote: Bool)
    /// A command line reaches the primary instance: its own, or (`isRemote`) a later
    /// `porthole …`'s; `givesSettings`: it names `--config`, `--private` or `--kiosk`.
    case commandLine(isRemote: Bool, givesSettings: Bool)
    /// A command line or `activate` wants the window shown; `hasWindow`: one exists.
    case windowRequested(hasWindow: Bool)
}

public enum StartupStep: Equatable, Sendable {
    /// Read the configuration and set the environment GTK and WebKit start with.
    case prepare
    /// When GTK opens the display and no other Porthole runs: the engine and a window loading
    /// this process's page, so that WebKit's processes start while GApplication registers.
    case startEarly
    /// Create the engine.
    case startEngine
    /// Stop and destroy the early window without showing it.
    case dropEarlyStart
    /// Tell a later `porthole --config …` that the running configuration stays.
    case sayConfigurationStays
    /// Show the window without loading the command line's page: the early window loads it already.
    case keepEarlyPage
    /// Make the early window the application's and show it.
    case attachEarlyWindow
    /// Make the application's window and show it.
    case makeWindow
    /// Load the page asked for (if any) in the window there is, and raise it.
    case presentWindow
}
