// The application object: its state, and start-up as GApplication's signals drive it through
// StartupPhase (one engine, one window). The configuration, the command line's options, the bus
// services and the status record are in the files beside this one.
import CGLib
import CWebKitGtk
import FoundationEssentials
import Glibc
import GLibBridge
import PortholeCore
import PortholeUI

@MainActor
final class PortholeApplication {
    nonisolated static let applicationID = "dev.porthole.Porthole"
    static let version = AboutPorthole.version

    let appOwner: ObjectOwner
    private let connections = SignalConnections()
    /// Where start-up stands: it decides what each of GApplication's signals does next.
    private(set) var phase = StartupPhase.unprepared
    var engine: BrowserEngine?
    var window: BrowserWindow?
    var appActions: [String: SimpleAction] = [:]
    var sighup: ScheduledSource?
    /// SIGTERM (systemd's stop, `kill`) ends the main loop, so that shutdown tells the service
    /// manager and removes the status file instead of leaving a healthy-looking one behind.
    var sigterm: ScheduledSource?
    /// systemd's notify socket, when running as a `Type=notify` service.
    private var notifier: ServiceNotifier?
    /// The configuration sources and overrides the running browser was started with.
    var sources = ConfigSources()
    var overrides: [ConfigKey: String] = [:]
    var configuration = Configuration.failClosed()
    /// The last configuration load, for the engine created after it.
    var lastLoad: ConfigLoadResult?
    /// Reloads when the Chrome policy folder changes, as Chrome does.
    lazy var chromePolicyWatcher = ChromePolicyWatcher { [unowned self] in self.reloadConfiguration() }
    /// Whether bubblewrap runs here: tried once, when a configuration first wants the sandbox.
    var bubblewrap: WebProcessSandbox.Availability?
    /// The sandbox decision of the first load: web processes start with it (read at start).
    var startSandboxed: Bool?
    /// The session bus, held from `startBusServices` on (GApplication shares this connection).
    var sessionBus: ObjectOwner?
    /// What `porthole status` reads: the `status` action's state, updated as events arrive.
    var status: BrowserStatus = {
        var status = BrowserStatus(startedAt: Int(time(nil)))
        status.version = AboutPorthole.version
        return status
    }()
    var statusAction: StateAction?
    /// The last status published, so that unchanged events do not touch D-Bus.
    var publishedStatus: BrowserStatus?
    /// Whether page events' changes are waiting to be published, and the wait.
    var statusPublishing = StatusPublishing()
    var statusPublication: ScheduledSource?
    /// The status in Prometheus's text format, for monitors without the session bus.
    let statusFile = StatusFile(environment: ProcessInfo.processInfo.environment)
    /// Rewrites the status file while nothing happens, so that its time and the error page's
    /// duration stay current (a monitor can tell a stale file from a quiet kiosk).
    var statusRefresh: ScheduledSource?

    init() {
        let app = gtk_application_new(Self.applicationID, G_APPLICATION_HANDLES_COMMAND_LINE)!
        appOwner = ObjectOwner(adopting: UnsafeMutableRawPointer(app))
        addOptions()
        let object = UnsafeMutableRawPointer(app)
        connections.connect(object, "handle-local-options", .pointerReturningInt { [unowned self] dict in
            self.handleLocalOptions(dict?.assumingMemoryBound(to: GVariantDict.self))
        })
        connections.connect(object, "startup", .plain { [unowned self] in self.startup() })
        connections.connect(object, "notify::is-registered", .pointer { [unowned self] _ in self.registered() })
        connections.connect(object, "activate", .plain { [unowned self] in self.showWindow(loading: nil) })
        connections.connect(object, "command-line", .pointerReturningInt { [unowned self] commandLine in
            self.commandLine(commandLine?.assumingMemoryBound(to: GApplicationCommandLine.self))
        })
        connections.connect(object, "shutdown", .plain { [unowned self] in
            self.notifier?.stopping()
            self.statusRefresh?.cancel()
            self.statusPublication?.cancel()
            self.statusFile.remove()
        })
    }

    var application: UnsafeMutablePointer<GtkApplication> { appOwner.typed()! }
    var gApplication: UnsafeMutablePointer<GApplication> {
        UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self)  // G_APPLICATION(application)
    }

    func run(_ arguments: [String]) -> Int32 {
        if let problem = Arguments.commandLineProblem(arguments) {
            Console.error("porthole: \(problem)")
            return 2
        }
        let options = Array(arguments.dropFirst())
        if let option = CommandLineOptions.unknownOption(in: options) {
            Console.error(tr("porthole: unknown option {option}").replacing("{option}", with: option))
            Console.error(tr("Run \"porthole --help\" to see the options."))
            return 2  // as the README and the manual page say, not GOptionContext's 1
        }
        // GTK opens the display `--display` names; WebKit's web processes open $DISPLAY, so they
        // are given the same one (while this is the only thread: g_setenv is not thread-safe).
        if let display = CommandLineOptions.value(of: "display", in: options) { g_setenv("DISPLAY", display, 1) }
        return withCStringArray(arguments) { g_application_run(gApplication, Int32(arguments.count), $0) }
    }

    /// Runs in the process that was started, before it looks for a running instance.
    private func handleLocalOptions(_ dict: UnsafeMutablePointer<GVariantDict>?) -> Int32 {
        let options = OptionsDict(dict)
        if options.flag("version") {
            guard options.remaining.isEmpty else {
                Console.error("porthole: " + tr("--version takes no arguments"))
                return 2
            }
            print("porthole \(Self.version) (WebKitGTK \(webkit_get_major_version()).\(webkit_get_minor_version()).\(webkit_get_micro_version()))")
            return 0
        }
        if options.flag("hash-pin") {
            return HashPinCommand.run(readLine: Console.readSecretLine, out: { print($0) }, err: { Console.error($0) })
        }
        if options.flag("check-config") {
            let sources = ConfigSources.standard(commandLine: options.string("config"))
            return ConfigCheckCommand.run(paths: options.remaining, sources: sources, validateFilter: URLFilter.validator,
                                          out: { print($0) }, err: { Console.error($0) })
        }
        prestart(options)
        return -1
    }

    /// Starts the browser before GApplication registers on D-Bus and runs GTK's start-up, so that
    /// WebKit's network and web processes start, and the first page loads, while those run
    /// (issue 14). The window is shown by this process's own command line (`commandLine`); if
    /// another Porthole is already running, this process hands its command line over and exits,
    /// and what it started goes with it. With a command line `commandLine` will refuse it does
    /// nothing, and without a display it only reads the configuration; start-up then takes the
    /// usual path.
    private func prestart(_ options: OptionsDict) {
        let remaining = options.remaining
        guard remaining.count <= 1 else { return }
        var target: String?
        if let argument = remaining.first {
            guard case .success(let uri) = Arguments.target(for: argument, fileURI: Self.localFileURI) else { return }
            target = uri
        }
        for step in phase.handle(.ownOptions) {
            switch step {
            case .prepare:
                // Before GTK: the configuration decides the environment GTK and WebKit start with, and
                // the bus services then start on the core that GTK's set-up (one thread) leaves idle.
                prepare(options, report: { Console.error($0) })
            case .startEarly:
                // A second `porthole URL` hands its URL to the running browser, which decides it with the
                // running configuration: loading it here first would decide it with this process's own
                // (and log the refusal twice).
                guard !anotherInstanceRuns() else { return }
                guard gtk_init_check(nil, nil) != 0 else {
                    // GTK's start-up will say why and exit: not while the driver is loading.
                    PagePainting.finishDriverPreload()
                    return
                }
                startEngine()
                makeWindow(application: nil, loading: target)
                _ = phase.handle(.startedEarly)
            default:
                break
            }
        }
    }

    /// GApplication has registered on the bus: when another Porthole runs already, this process
    /// hands its command line over and exits, so the page it started must not load here too.
    private func registered() {
        guard g_application_get_is_registered(gApplication) != 0 else { return }
        let isRemote = g_application_get_is_remote(gApplication) != 0
        guard phase.handle(.registered(isRemote: isRemote)) == [.dropEarlyStart], let window else { return }
        window.coordinator.stop()
        if let widget = window.window { gtk_widget_destroy(widget) }  // not close: a kiosk refuses that
        Log.debug("already running: the early start is dropped")
    }

    /// Reads the configuration and sets the environment from it; needs no display.
    private func prepare(_ options: OptionsDict, report: (String) -> Void) {
        sources = ConfigSources.standard(commandLine: options.string("config"))
        if options.flag("private") { overrides[.ephemeral] = "true" }
        if options.flag("kiosk") { overrides[.kioskEnabled] = "true" }
        loadConfiguration(report: report)
        // `[Browser] languages=` is read once, before the window and the web context exist.
        Localization.use(languages: configuration.browser.languages)
        // Like the languages, read once: every web process starts with the environment set here.
        PagePainting.prepare(configuration.browser.gpuPainting)
        // The environment is set: the GL driver and the services the engine and GTK wait for can
        // start meanwhile.
        PagePainting.preloadDriver()
        startBusServices()
    }

    /// Creates the engine, after `prepare` and GTK's initialisation.
    private func startEngine() {
        let engine = BrowserEngine(sites: configuration.sites, ephemeral: configuration.keepsWebsiteDataInMemory,
                                   sandboxed: startSandboxed ?? false)
        if let lastLoad { engine.show(lastLoad) }
        engine.setProxy(configuration.network.proxy, ignoring: configuration.network.proxyIgnore)
        self.engine = engine
        notifier = ServiceNotifier(environment: ProcessInfo.processInfo.environment, pid: getpid())
        notifier?.startWatchdog()
        checkProfile()
    }

    /// Runs in the primary instance, for its own command line and for every later `porthole …`.
    private func commandLine(_ commandLine: UnsafeMutablePointer<GApplicationCommandLine>?) -> Int32 {
        let options = OptionsDict(g_application_command_line_get_options_dict(commandLine))
        let isRemote = g_application_command_line_get_is_remote(commandLine) != 0
        Log.debug("command line", fields: ["PORTHOLE_REMOTE": isRemote ? "true" : "false",
                                           "PORTHOLE_ARGUMENTS": options.remaining.joined(separator: " ")])
        if options.remaining.count > 1 {
            porthole_command_line_printerr(commandLine, "porthole: " + tr("give at most one URL or file (got {count})")
                .replacing("{count}", with: String(options.remaining.count)) + "\n")
            return 2
        }
        let givesSettings = options.string("config") != nil || options.flag("private") || options.flag("kiosk")
        let steps = phase.handle(.commandLine(isRemote: isRemote, givesSettings: givesSettings))
        for step in steps {
            switch step {
            case .prepare: prepare(options, report: { message in porthole_command_line_printerr(commandLine, message + "\n") })
            case .startEngine: startEngine()
            case .sayConfigurationStays:
                porthole_command_line_printerr(commandLine,
                    "porthole: " + tr("already running; its configuration stays (use `gapplication action {id} reload-config`)")
                        .replacing("{id}", with: Self.applicationID) + "\n")
            default: break
            }
        }
        var target: String?
        if let argument = options.remaining.first {
            switch Arguments.target(for: argument, fileURI: { path in
                Self.existingFileURI(g_application_command_line_create_file_for_arg(commandLine, path))
            }) {
            case .success(let uri): target = uri
            case .failure(let problem):
                porthole_command_line_printerr(commandLine, "porthole: \(problem)\n")
                return 2
            }
        }
        // The window `prestart` made for this very command line is already loading its page.
        showWindow(loading: steps.contains(.keepEarlyPage) ? nil : target)
        return 0
    }

    private func showWindow(loading uri: String?) {
        Log.debug("show window", fields: ["PORTHOLE_URL": uri ?? "home"])
        switch phase.handle(.windowRequested(hasWindow: window != nil)) {
        case [.presentWindow]:
            if let uri { window?.load(url: uri) }
            window?.present()
            return
        case [.attachEarlyWindow]:
            if let uri { window?.load(url: uri) }
        case [.makeWindow]:
            makeWindow(application: application, loading: uri)
        default:
            return
        }
        guard let window else { return }
        window.attach(to: application)
        // Kiosk mode keeps only the accelerators of the shortcuts it allows; it is fixed at start.
        BrowserWindow.installAccelerators(on: application, kiosk: browserOptions().kiosk)
        window.show()
    }

    /// The browser window, loading `uri` (or the home page) before GTK realizes and maps it, so
    /// that the load's web and network processes start while GTK draws.
    private func makeWindow(application: UnsafeMutablePointer<GtkApplication>?, loading uri: String?) {
        guard let engine else { return }
        let options = browserOptions()
        let window = BrowserWindow(application: application, engine: engine, options: options) { [unowned self] _ in
            self.window = nil
        }
        window.onEvent = { [unowned self, unowned window] event in
            let now = Int(time(nil))
            if let statusEvent = StatusEvent(event) { self.status.record(statusEvent, at: now) }
            self.status.follow(window.shown, title: window.state.title, refusals: window.session.refusals, at: now)
            self.publishStatusSoon()
            // Under systemd, start-up is done when the first page (or its error page) has loaded.
            if case .loadFinished = event, let window = self.window {
                self.notifier?.ready(status: "Showing \(window.coordinator.uri ?? "a page")")
            }
        }
        self.window = window
        if let uri { window.load(url: uri) } else { window.goHome() }
    }

    func quit() {
        window?.close()
        g_application_quit(gApplication)
    }
}
