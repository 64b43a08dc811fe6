// The application object: command line (GOptionEntry via GApplication), one engine, the window,
// configuration loading and reloading, and the actions exported on D-Bus for remote control.
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

    private let appOwner: ObjectOwner
    private let connections = SignalConnections()
    private var engine: BrowserEngine?
    private var window: BrowserWindow?
    private var appActions: [String: SimpleAction] = [:]
    private var sighup: ScheduledSource?
    /// SIGTERM (systemd's stop, `kill`) ends the main loop, so that shutdown tells the service
    /// manager and removes the status file instead of leaving a healthy-looking one behind.
    private var sigterm: ScheduledSource?
    /// systemd's notify socket, when running as a `Type=notify` service.
    private var notifier: ServiceNotifier?
    /// The configuration sources and overrides the running browser was started with.
    private var sources = ConfigSources()
    private var overrides: [ConfigKey: String] = [:]
    private(set) var configuration = Configuration.failClosed()
    /// What `porthole status` reads: the `status` action's state, updated as events arrive.
    private var status: BrowserStatus = {
        var status = BrowserStatus(startedAt: Int(time(nil)))
        status.version = AboutPorthole.version
        return status
    }()
    private var statusAction: StateAction?
    /// The status in Prometheus's text format, for monitors without the session bus.
    private let statusFile = StatusFile(environment: ProcessInfo.processInfo.environment)
    /// Rewrites the status file while nothing happens, so that its time and the error page's
    /// duration stay current (a monitor can tell a stale file from a quiet kiosk).
    private var statusRefresh: ScheduledSource?

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
            self.statusFile.remove()
        })
    }

    private var application: UnsafeMutablePointer<GtkApplication> { appOwner.typed()! }
    private var gApplication: UnsafeMutablePointer<GApplication> {
        UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self)  // G_APPLICATION(application)
    }

    func run(_ arguments: [String]) -> Int32 {
        if let problem = Arguments.commandLineProblem(arguments) {
            Console.error("porthole: \(problem)")
            return 2
        }
        if let option = Arguments.unknownOption(in: Array(arguments.dropFirst()), flags: Self.flagOptions, valued: Self.valuedOptions) {
            Console.error(tr("porthole: unknown option {option}").replacing("{option}", with: option))
            Console.error(tr("Run \"porthole --help\" to see the options."))
            return 2  // as the README and the manual page say, not GOptionContext's 1
        }
        var cArguments = arguments.map { strdup($0) }
        defer { cArguments.forEach { free($0) } }
        return cArguments.withUnsafeMutableBufferPointer { buffer in
            g_application_run(gApplication, Int32(buffer.count), buffer.baseAddress)
        }
    }

    // MARK: Command line

    /// The options addOptions declares, with GApplication's own; checked before GLib parses them.
    static let flagOptions: Set<String> = ["--check-config", "--private", "--kiosk", "--hash-pin", "--version", "--help", "-h", "-?",
                                           "--help-all", "--help-gapplication", "--gapplication-service"]
    static let valuedOptions: Set<String> = ["--config"]

    private func addOptions() {
        // GApplication keeps pointers to these strings: translated copies that live for the whole run.
        func add(_ name: StaticString, _ arg: GOptionArg, _ description: String, _ argDescription: String? = nil) {
            g_application_add_main_option(gApplication, name.cString, 0, G_OPTION_FLAG_NONE, arg,
                                          g_strdup(description), argDescription.map { g_strdup($0) } ?? nil)
        }
        // TRANSLATORS: FILE is the --config option's argument, as `porthole --help` shows it.
        add("config", G_OPTION_ARG_FILENAME, tr("Read the configuration from FILE instead of the user's file"), tr("FILE"))
        add("check-config", G_OPTION_ARG_NONE, tr("Check the configuration (or each FILE) and print every problem; exit 1 if any"))
        add("private", G_OPTION_ARG_NONE, tr("Keep no website data (cookies, storage, cache) after quitting"))
        add("kiosk", G_OPTION_ARG_NONE, tr("Run fullscreen and locked down, as [Kiosk] enabled=true does"))
        add("hash-pin", G_OPTION_ARG_NONE, tr("Read a kiosk exit PIN from standard input and print its exit-pin-hash= line"))
        add("version", G_OPTION_ARG_NONE, tr("Print the version and exit"))
        add("", G_OPTION_ARG_FILENAME_ARRAY, "", tr("[URL|FILE]"))
        // TRANSLATORS: the command lines after "Admin tools:" stay as they are.
        g_application_set_option_context_summary(gApplication, tr("Porthole shows only the sites its configuration approves.\n\nAdmin tools:\n  porthole policy check [--allow FILTER]... [--block FILTER]... [URL...]\n  porthole --check-config [FILE...]\n  porthole status [--json] [--max-error-minutes N]\n  echo PIN | porthole --hash-pin"))
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
        // Before GTK: the configuration decides the environment GTK and WebKit start with, and
        // the bus services then start on the core that GTK's set-up (one thread) leaves idle.
        prepare(config: options.string("config"), privateMode: options.flag("private"), kiosk: options.flag("kiosk"),
                report: { Console.error($0) })
        // A second `porthole URL` hands its URL to the running browser, which decides it with the
        // running configuration: loading it here first would decide it with this process's own
        // (and log the refusal twice).
        guard !anotherInstanceRuns(), gtk_init_check(nil, nil) != 0 else { return }
        startEngine()
        makeWindow(application: nil, loading: target)
    }

    /// The session bus, held from `startBusServices` on (GApplication shares this connection).
    private var sessionBus: ObjectOwner?

    /// The session services that start-up waits for, asked to start now without waiting for the
    /// answer, so that they start while Porthole creates its engine and window:
    /// - the desktop portal (org.freedesktop.portal.Desktop): GTK's start-up asks for it and, on
    ///   a session where nothing has started it yet, blocks until it has started (166 ms measured
    ///   with dbus-monitor), during which the main loop answers no WebKit message;
    /// - the accessibility bus (org.a11y.Bus): WebKit asks it for its address, synchronously,
    ///   before it starts the first web process (30-40 ms of at-spi-bus-launcher's start measured
    ///   with perf between the load and the web process's start).
    /// A service that is not installed is refused by the bus, and nothing happens. Called once
    /// Porthole has set its environment (the languages, the page painting): connecting starts
    /// GDBus's thread, and g_setenv is safe only while one thread runs.
    private func startBusServices() {
        guard sessionBus == nil, let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return }
        sessionBus = ObjectOwner(adopting: UnsafeMutableRawPointer(bus))
        for service in ["org.a11y.Bus", "org.freedesktop.portal.Desktop"] {
            var arguments: [OpaquePointer?] = [g_variant_new_string(service), g_variant_new_uint32(0)]
            let parameters = arguments.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 2) }
            g_dbus_connection_call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "StartServiceByName",
                                   parameters, nil, G_DBUS_CALL_FLAGS_NONE, -1, nil, nil, nil)
        }
    }

    /// Whether a running Porthole owns the application's name on the session bus (one round trip
    /// on the connection `startBusServices` made). Two starting at once both see none; the one
    /// that loses the name then drops its early start in `registered`.
    private func anotherInstanceRuns() -> Bool {
        guard let bus = sessionBus?.opaque else { return false }
        var arguments: [OpaquePointer?] = [g_variant_new_string(Self.applicationID)]
        let parameters = arguments.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 1) }
        guard let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                      "NameHasOwner", parameters, nil, G_DBUS_CALL_FLAGS_NONE, -1, nil, nil) else { return false }
        defer { g_variant_unref(reply) }
        guard let owned = g_variant_get_child_value(reply, 0) else { return false }
        defer { g_variant_unref(owned) }
        return g_variant_get_boolean(owned) != 0
    }

    /// Another Porthole runs already: this process hands its command line over and exits, so
    /// the page it started must not load here too.
    private func registered() {
        guard g_application_get_is_registered(gApplication) != 0, g_application_get_is_remote(gApplication) != 0,
              let window, !window.isAttached else { return }
        window.coordinator.stop()
        if let widget = window.window { gtk_widget_destroy(widget) }  // not close: a kiosk refuses that
        Log.debug("already running: the early start is dropped")
    }

    /// The `file://` URI of an existing file named on this process's command line, else nil.
    private static func localFileURI(_ path: String) -> String? {
        existingFileURI(g_file_new_for_commandline_arg(path))
    }

    /// The URI of `file` (taken over) if it exists, else nil.
    private static func existingFileURI(_ file: OpaquePointer?) -> String? {
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard g_file_query_exists(file, nil) != 0, let uri = g_file_get_uri(file) else { return nil }
        defer { g_free(uri) }
        return String(cString: uri)
    }

    /// Whether `prepare` has run.
    private var prepared = false

    /// Reads the configuration and sets the environment from it, once per process; needs no
    /// display.
    private func prepare(config: String?, privateMode: Bool, kiosk: Bool, report: (String) -> Void) {
        guard !prepared else { return }
        prepared = true
        sources = ConfigSources.standard(commandLine: config)
        if privateMode { overrides[.ephemeral] = "true" }
        if kiosk { overrides[.kioskEnabled] = "true" }
        loadConfiguration(report: report)
        // `[Browser] languages=` is read once, before the window and the web context exist.
        Localization.use(languages: configuration.browser.languages)
        // Like the languages, read once: every web process starts with the environment set here.
        PagePainting.prepare(configuration.browser.gpuPainting)
        // The environment is set: the services the engine and GTK wait for can start meanwhile.
        startBusServices()
    }

    /// Creates the engine, once per process, after `prepare` and GTK's initialisation.
    private func startEngine() {
        guard engine == nil else { return }
        let engine = BrowserEngine(sites: configuration.sites, ephemeral: configuration.keepsWebsiteDataInMemory,
                                   sandboxed: startSandboxed ?? false)
        if let lastLoad { engine.show(lastLoad) }
        engine.setProxy(configuration.network.proxy, ignoring: configuration.network.proxyIgnore)
        self.engine = engine
        notifier = ServiceNotifier(environment: ProcessInfo.processInfo.environment, pid: getpid())
        notifier?.startWatchdog()
        checkProfile()
    }

    /// Looks at the profile's directories (where the engine keeps website data and its cache):
    /// a read-only or nearly full disk is logged once when it appears and makes the status a
    /// WARNING, instead of failing WebKit's writes without a word. Checked at start and with
    /// every status refresh.
    private func checkProfile() {
        func directory(_ base: UnsafePointer<gchar>?) -> String { (base.map { String(cString: $0) } ?? "/tmp") + "/porthole" }
        var directories = [directory(g_get_user_cache_dir())]
        if !configuration.keepsWebsiteDataInMemory { directories.insert(directory(g_get_user_data_dir()), at: 0) }
        let problems = ProfileCheck.problems(directories.map { path in
            if g_mkdir_with_parents(path, 0o700) != 0 || access(path, W_OK) != 0 {
                return ProfileProbe(path: path, unwritable: String(cString: strerror(errno)))
            }
            var info = statvfs()
            return ProfileProbe(path: path, freeBytes: statvfs(path, &info) == 0 ? UInt64(info.f_bavail) * UInt64(info.f_frsize) : nil)
        })
        guard problems != status.profileProblems else { return }
        for problem in problems where !status.profileProblems.contains(problem) {
            Log.warning(problem, fields: ["PORTHOLE_EVENT": "profile-problem"])
        }
        status.profileProblems = problems
        publishStatus()
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
        if engine == nil {
            prepare(config: options.string("config"), privateMode: options.flag("private"), kiosk: options.flag("kiosk"),
                    report: { message in porthole_command_line_printerr(commandLine, message + "\n") })
            startEngine()
        } else if isRemote, options.string("config") != nil || options.flag("private") || options.flag("kiosk") {
            porthole_command_line_printerr(commandLine,
                "porthole: " + tr("already running; its configuration stays (use `gapplication action {id} reload-config`)")
                    .replacing("{id}", with: Self.applicationID) + "\n")
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
        showWindow(loading: !isRemote && window?.isAttached == false ? nil : target)
        return 0
    }

    // MARK: Configuration

    /// Loads the configuration from `sources`: problems and notices go to `report` and the log.
    /// With problems the browser fails closed: everything is blocked and the start page names them.
    /// A reload (`reloading`) may keep the running configuration instead (see `ConfigReload`).
    private func loadConfiguration(report: (String) -> Void, reloading: Bool = false) {
        var result = ConfigLoader.load(sources: sources, overrides: overrides, validateFilter: URLFilter.validator)
            .adding(BrowserEngine.installationProblems)
        let sandbox = sandboxDecision(for: result.effectiveConfiguration, report: report)
        if let problem = sandbox.problem {
            result = result.adding([ConfigProblem(file: SandboxSetup.programs[0], key: "Browser/sandbox", message: problem)])
        }
        // Each problem once: as `porthole: …` at a terminal (GLib's writer would print the
        // warning a second time), as one structured warning in the journal.
        let toJournal = g_log_writer_is_journald(STDERR_FILENO) != 0
        for (text, event) in result.notices.map({ ($0.description, "config-lock") }) + result.problems.map({ ($0.description, "config-problem") }) {
            if !toJournal { report("porthole: \(text)") }
            Log.write(toJournal ? .warning : .debug, text, fields: ["PORTHOLE_EVENT": event])
        }
        switch reloading ? ConfigReload.decide(result, running: configuration) : .apply(result.effectiveConfiguration, notes: []) {
        case .keep(let reason):
            report("porthole: \(reason)")
            Log.warning(reason, fields: ["PORTHOLE_EVENT": "config-kept"])
            return
        case .apply(let next, let notes):
            notes.forEach { Log.warning($0, fields: ["PORTHOLE_EVENT": "config-reload"]) }
            configuration = next
        }
        let digest = StatusReport.configDigest(result.sources.compactMap { path in
            var contents: UnsafeMutablePointer<gchar>?
            var length: gsize = 0
            guard g_file_get_contents(path, &contents, &length, nil) != 0, let contents else { return nil }
            defer { g_free(contents) }
            return (path, Array(UnsafeRawBufferPointer(start: contents, count: Int(length))))
        })
        status.configurationLoaded(files: result.sources, problems: result.problems.count, kiosk: configuration.kiosk.enabled, digest: digest)
        status.sandbox = sandbox.statusText
        status.sandboxMissing = sandbox.warning != nil
        publishStatus()
        engine?.show(result)
        engine?.setProxy(configuration.network.proxy, ignoring: configuration.network.proxyIgnore)
        lastLoad = result
        chromePolicyWatcher.watch(configuration.chromePolicies)
        Log.info("configuration loaded", fields: ["PORTHOLE_EVENT": "config-loaded", "PORTHOLE_CONFIG_SOURCES": result.sources.joined(separator: ";"),
                                                  "PORTHOLE_CONFIG_DIGEST": digest,
                                                  "PORTHOLE_CONFIG_PROBLEMS": String(result.problems.count)])
    }

    /// Whether bubblewrap runs here: tried once, when a configuration first wants the sandbox.
    private var bubblewrap: WebProcessSandbox.Availability?
    /// The sandbox decision of the first load: web processes start with it (read at start).
    private var startSandboxed: Bool?

    /// `[Browser] sandbox=` for `configuration`: the first load decides whether web processes are
    /// sandboxed; every load (a reload into kiosk mode) checks that decision still holds.
    private func sandboxDecision(for configuration: Configuration, report: (String) -> Void) -> WebProcessSandbox.Decision {
        let setting = configuration.browser.sandbox
        if setting != .off, bubblewrap == nil { bubblewrap = SandboxSetup.availability() }
        var decision = setting.decide(bubblewrap: bubblewrap ?? .runs, kiosk: configuration.kiosk.enabled)
        guard let started = startSandboxed else {
            startSandboxed = decision.sandboxed
            if let warning = decision.warning {
                report("porthole: \(warning)")
                Log.write(.warning, warning, fields: ["PORTHOLE_EVENT": "sandbox-unavailable"])
            }
            return decision
        }
        // Web processes keep the sandbox they started with.
        decision.sandboxed = started
        return decision
    }

    /// The last configuration load, for the engine created after it.
    private var lastLoad: ConfigLoadResult?
    /// Reloads when the Chrome policy folder changes, as Chrome does.
    private lazy var chromePolicyWatcher = ChromePolicyWatcher { [unowned self] in self.reloadConfiguration() }

    private func reloadConfiguration() {
        guard engine != nil else { return }
        let wasBroken = configuration.isFailClosed
        loadConfiguration(report: { Console.error($0) }, reloading: true)
        window?.update(options: browserOptions())
        // The page that said "not set up correctly" is stale once the file is fixed, and a
        // newly broken file must show its problems at once: both mean the home page.
        if wasBroken || configuration.isFailClosed { window?.goHome() }
    }

    private func browserOptions() -> BrowserOptions {
        BrowserOptions(configuration: configuration, policy: SitePolicy(configuration: configuration))
    }

    // MARK: Window and actions

    private func startup() {
        DisplayWatch.start()
        let map = UnsafeMutableRawPointer(application)
        // The remote-control surface: `gapplication action dev.porthole.Porthole NAME`.
        for name in ["reload", "home", "back", "forward", "stop"] {
            appActions[name] = SimpleAction(name: name, in: map) { [unowned self] in self.window?.action(name)?.activate() }
        }
        appActions["open-site"] = SimpleAction(name: "open-site", stringParameterIn: map) { [unowned self] site in
            self.window?.openSite(site)
        }
        appActions["reload-config"] = SimpleAction(name: "reload-config", in: map) { [unowned self] in self.reloadConfiguration() }
        appActions["quit"] = SimpleAction(name: "quit", in: map) { [unowned self] in self.quit() }
        // Before the first status file: a monitor that sees it may already send SIGHUP.
        sighup = MainLoop.onUnixSignal(SIGHUP) { [unowned self] in
            Log.info("SIGHUP: reloading the configuration", fields: ["PORTHOLE_EVENT": "config-sighup"])
            self.reloadConfiguration()
        }
        sigterm = MainLoop.onUnixSignal(SIGTERM) { [unowned self] in
            Log.info("SIGTERM: quitting", fields: ["PORTHOLE_EVENT": "sigterm"])
            g_application_quit(self.gApplication)
        }
        // Read-only, for `porthole status` and monitoring: org.gtk.Actions.Describe("status").
        statusAction = StateAction(name: "status", state: status.variant(), in: map)
        writeStatusFile()
        statusRefresh = MainLoop.every(milliseconds: 30_000) { [unowned self] in
            self.checkProfile()
            self.writeStatusFile()
            return true
        }
    }

    private func showWindow(loading uri: String?) {
        Log.debug("show window", fields: ["PORTHOLE_URL": uri ?? "home"])
        if let window, window.isAttached {
            if let uri { window.load(url: uri) }
            window.present()
            return
        }
        // The first window: made now, or by `prestart` before GApplication registered.
        if let window {
            if let uri { window.load(url: uri) }
        } else {
            makeWindow(application: application, loading: uri)
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
        window.onEvent = { [unowned self] event in
            if let statusEvent = StatusEvent(event) {
                self.status.record(statusEvent, at: Int(time(nil)))
                self.publishStatus()
            }
            // Under systemd, start-up is done when the first page (or its error page) has loaded.
            if case .loadFinished = event, let window = self.window {
                self.notifier?.ready(status: "Showing \(window.coordinator.uri ?? "a page")")
            }
        }
        self.window = window
        if let uri { window.load(url: uri) } else { window.goHome() }
    }

    /// The last status published, so that unchanged events do not touch D-Bus.
    private var publishedStatus: BrowserStatus?

    private func publishStatus() {
        guard let statusAction, status != publishedStatus else { return }
        statusAction.set(status.variant())
        publishedStatus = status
        writeStatusFile()
    }

    private func writeStatusFile() {
        statusFile.write(StatusReport.prometheus(status, now: Int(time(nil)), maximumErrorSeconds: StatusCommand.defaultMaximumErrorMinutes * 60))
    }

    private func quit() {
        window?.close()
        g_application_quit(gApplication)
    }
}

/// Reads a GVariantDict of parsed options.
private struct OptionsDict {
    let dict: UnsafeMutablePointer<GVariantDict>?
    init(_ dict: UnsafeMutablePointer<GVariantDict>?) { self.dict = dict }

    func flag(_ name: String) -> Bool {
        g_variant_dict_contains(dict, name) != 0
    }

    func string(_ name: String) -> String? {
        guard let value = g_variant_dict_lookup_value(dict, name, nil) else { return nil }
        defer { g_variant_unref(value) }
        return g_variant_get_bytestring(value).map { String(cString: $0) }
    }

    var remaining: [String] {
        guard let value = g_variant_dict_lookup_value(dict, "", nil) else { return [] }
        defer { g_variant_unref(value) }
        guard let strings = g_variant_get_bytestring_array(value, nil) else { return [] }
        defer { g_free(strings) }
        var result: [String] = []
        var index = 0
        while let item = strings[index] {
            result.append(String(cString: item))
            index += 1
        }
        return result
    }
}

extension StaticString {
    /// The string's bytes as a C string pointer, valid for the life of the process.
    var cString: UnsafePointer<CChar> {
        UnsafeRawPointer(utf8Start).assumingMemoryBound(to: CChar.self)
    }
}

enum Console {
    /// Writes `text` to standard error as it is (no buffering to flush).
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = Glibc.write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }

    static func error(_ message: String) {
        write(message + "\n")
    }

    /// A line from standard input; at a terminal, prompted on stderr and not echoed.
    static func readSecretLine() -> String? {
        guard isatty(STDIN_FILENO) != 0 else { return Swift.readLine(strippingNewline: true) }
        // TRANSLATORS: the prompt for the kiosk exit PIN at a terminal (porthole --hash-pin).
        write(tr("PIN: "))
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            write("\n")
        }
        return Swift.readLine(strippingNewline: true)
    }
}
