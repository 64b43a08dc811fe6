// The configuration: loading and reloading it, the sandbox decision it makes at start, and the
// profile check that goes with it.
import CGLib
import CWebKitGtk
import FoundationEssentials
import Glibc
import GLibBridge
import PortholeCore
import PortholeUI

extension PortholeApplication {
    /// Loads the configuration from `sources`: problems and notices go to `report` and the log.
    /// With problems the browser fails closed: everything is blocked and the start page names them.
    /// A reload (`reloading`) may keep the running configuration instead (see `ConfigReload`).
    func loadConfiguration(report: (String) -> Void, reloading: Bool = false) {
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

    /// `[Browser] sandbox=` for `configuration`: the first load decides whether web processes are
    /// sandboxed; every load (a reload into kiosk mode) checks that decision still holds.
    func sandboxDecision(for configuration: Configuration, report: (String) -> Void) -> WebProcessSandbox.Decision {
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

    func reloadConfiguration() {
        guard phase.hasEngine else { return }
        let wasBroken = configuration.isFailClosed
        loadConfiguration(report: { Console.error($0) }, reloading: true)
        window?.update(options: browserOptions())
        // The page that said "not set up correctly" is stale once the file is fixed, and a
        // newly broken file must show its problems at once: both mean the home page.
        if wasBroken || configuration.isFailClosed { window?.goHome() }
    }

    func browserOptions() -> BrowserOptions {
        BrowserOptions(configuration: configuration, policy: SitePolicy(configuration: configuration))
    }

    /// Looks at the profile's directories (where the engine keeps website data and its cache):
    /// a read-only or nearly full disk is logged once when it appears and makes the status a
    /// WARNING, instead of failing WebKit's writes without a word. Checked at start and with
    /// every status refresh.
    func checkProfile() {
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
}
