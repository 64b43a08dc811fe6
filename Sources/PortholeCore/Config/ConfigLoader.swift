// Loads the configuration: picks the files, reads each with GKeyFile, checks every value and
// applies the system file's locks. A pure function of the files, so reloading is loading again.
import CGLib
import Glibc

/// What a load found: the configuration when the files have no problems, every problem, and
/// every notice (attempts to change locked keys).
public struct ConfigLoadResult: Sendable, Equatable {
    public internal(set) var problems: [ConfigProblem]
    public internal(set) var notices: [ConfigNotice]
    /// Every valid value applied, every invalid one left at its default.
    var resolved: Configuration

    /// The configuration, or nil when there is any problem: a configuration with problems is not
    /// the one the admin meant, so it is not used as it is.
    public var configuration: Configuration? { problems.isEmpty ? resolved : nil }

    /// What the browser runs with: the configuration, or when there are problems
    /// `Configuration.failClosed(keeping:)` of the best-effort reading.
    public var effectiveConfiguration: Configuration { configuration ?? .failClosed(keeping: resolved) }

    /// The files read, base layer first.
    public var sources: [String] { resolved.sources }

    /// The file whose `[Kiosk] exit-pin-hash=` is in effect, if any (its readers can guess the PIN
    /// offline, so `--check-config` looks at who may read it).
    public internal(set) var exitPinHashFile: String?
    /// Whether a file was still changing after several reads: what was read is not what the
    /// admin meant, so a reload keeps the running configuration (see `ConfigReload`).
    public var isTransient: Bool { problems.contains(where: \.isTransient) }
}

public enum ConfigLoader {
    /// The origin given to command-line overrides in problems and notices.
    public static let commandLineOrigin = "command line"

    /// Reads `sources`, then applies `overrides` (e.g. `--private` as `Privacy/ephemeral=true`,
    /// written as keyfile values) unless the system file locks them. Every `[Policy]` filter is
    /// checked with `validateFilter`. Each file is read with `reader`.
    public static func load(sources: ConfigSources, overrides: [ConfigKey: String] = [:],
                            validateFilter: @escaping FilterValidator,
                            reader: ConfigFileReader = .standard) -> ConfigLoadResult {
        var problems: [ConfigProblem] = []
        var layers: [ConfigLayer] = []
        var notices: [ConfigNotice] = []
        var readFailed = false
        var systemFailed = false
        for (role, file) in files(in: sources, problems: &problems) {
            do throws(ConfigProblem) {
                let bytes = try KeyFileDocument.contents(of: file, reader: reader)
                // An empty admin file is what a write cut short leaves (`> porthole.conf`); read
                // as nothing, it would lift every lock. A comment line says "nothing" on purpose.
                if role.isSystemLayer, bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
                    throw ConfigProblem(file: file, line: 1, message: tr("empty: an empty system file is what a write cut short leaves; write a comment line (# no system settings) if it is meant to say nothing"))
                }
                let document = try KeyFileDocument(file: file, bytes: bytes)
                let layer = ConfigLayer(document: document, role: role, validateFilter: validateFilter)
                problems += layer.problems
                notices += layer.notices
                layers.append(layer)
            } catch {
                problems.append(error)
                readFailed = true
                if role.isSystemLayer { systemFailed = true }
            }
        }
        if !overrides.isEmpty {
            var values: [(key: ConfigKey, value: String)] = []
            for (key, value) in overrides.sorted(by: { $0.key.description < $1.key.description }) {
                if ConfigSchema.setting(key) == nil {
                    problems.append(ConfigProblem(file: commandLineOrigin, key: key.description, message: tr("unknown key")))
                } else {
                    values.append((key, value))
                }
            }
            let document = KeyFileDocument(file: commandLineOrigin, values: values)
            let layer = ConfigLayer(document: document, role: .commandLine, validateFilter: validateFilter)
            problems += layer.problems
            layers.append(layer)
        }
        // Without the system file we cannot know what it locks, so nothing may be applied over it.
        if systemFailed { layers.removeAll() }
        var result = merge(layers)
        // Chrome's policy folder, named by the merged configuration: its URL lists join the
        // configuration's; the policies with a Porthole meaning set their keys, under the system
        // file's locks unless the system layer named the folder.
        if let directory = result.resolved.chromePolicies {
            let chrome = ChromePolicies.read(directory: directory, validateFilter: validateFilter, reader: reader)
            problems += chrome.problems
            notices += chrome.notices
            var allowSeen = Set(result.resolved.allow), blockSeen = Set(result.resolved.block)
            result.resolved.allow += chrome.allow.filter { allowSeen.insert($0).inserted }
            result.resolved.block += chrome.block.filter { blockSeen.insert($0).inserted }
            result.resolved.sources += chrome.files
            for setting in chrome.settings {
                if !result.chromeFromSystem, let file = result.lockedBy(setting.key) {
                    notices.append(ConfigNotice(origin: setting.file + ":" + String(setting.line ?? 0), line: setting.line,
                                                message: tr("{key} is locked by {file}").filled(["key": setting.policy + " (" + setting.key.description + ")", "file": file])))
                } else {
                    setting.assignment(&result.resolved)
                }
            }
            applyStartPages(chrome.startPages, to: &result, notices: &notices)
        }
        // A file that could not be read may have had the sites; do not blame the others.
        if result.sites == nil, !readFailed, let file = result.sitesFile {
            problems.append(ConfigProblem(file: file, line: 0, key: "[\(ConfigSchema.sites)]",
                                          message: tr("no approved sites: add a [Sites] group with at least one site, like Example=example.com")))
        }
        // A one-bit change turns block=* into block=j: a valid file no one would mean. Said at
        // every load (start, reload, --check-config), where the lists do not end in default-deny.
        if problems.isEmpty, !result.resolved.sites.isEmpty, !result.resolved.block.contains("*") {
            let origin = result.resolved.sources.first ?? commandLineOrigin
            notices.append(ConfigNotice(origin: origin, line: 0, message: tr("warning: the block list has no catch-all *: every address the sites and allow= do not name is allowed too; write block=* to allow only them")))
        }
        return ConfigLoadResult(problems: problems, notices: notices + result.notices, resolved: result.resolved,
                                exitPinHashFile: result.exitPinHashFile)
    }

    /// The files to read, in layer order: the system file and its drop-ins, then `--config` or the
    /// user file; the bundled default only when there is none of them.
    private static func files(in sources: ConfigSources, problems: inout [ConfigProblem]) -> [(ConfigRole, String)] {
        // A name that exists counts, even as a dangling or looping symlink: reading it then fails,
        // which is a problem (failing closed), not a file that is not there (which would lift
        // the system file's locks, or fall back to the bundled sites).
        let exists = nameExists
        var files: [(ConfigRole, String)] = []
        if let system = sources.system, exists(system) { files.append((.system, system)) }
        if let directory = sources.systemDropIns {
            files += dropIns(in: directory, problems: &problems).map { (.dropIn, $0) }
        }
        if let commandLine = sources.commandLine {
            files.append((.commandLineFile, commandLine))
        } else if let user = sources.user, exists(user) {
            files.append((.user, user))
        }
        if files.isEmpty {
            if let bundled = sources.bundled, exists(bundled) {
                files.append((.bundled, bundled))
            } else {
                let looked = [sources.user, sources.system, sources.bundled].compactMap { $0 }.joined(separator: ", ")
                problems.append(ConfigProblem(file: sources.bundled ?? DataDirectory.defaultConfigName, line: 0,
                                              message: tr("no configuration file found (looked for {files})").filled(["files": looked])))
            }
        }
        return files
    }

    /// The `*.conf` files in `directory`, in lexical (byte) order, as systemd orders its drop-ins;
    /// names starting with `.` (editors' temporary files) are skipped. No directory, no files.
    static func dropIns(in directory: String, problems: inout [ConfigProblem]) -> [String] {
        guard nameExists(directory) else { return [] }
        var error: UnsafeMutablePointer<GError>?
        guard let dir = g_dir_open(directory, 0, &error) else {
            problems.append(ConfigProblem(file: directory, line: 0, message: tr("cannot read the drop-in folder: {reason}").replacing("{reason}", with: takeErrorMessage(error))))
            return []
        }
        defer { g_dir_close(dir) }
        var names: [String] = []
        while let entry = g_dir_read_name(dir) {
            let name = String(cString: entry)
            if !name.hasPrefix("."), name.count > 5, name.hasSuffix(".conf") { names.append(name) }
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { directory + "/" + $0 }
    }

    /// Whether `path` names something, a symlink included whatever it points to (`lstat`).
    static func nameExists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// Applies the layers in order. The system layer's locks (the system file's and its drop-ins')
    /// keep the user's layers from changing the keys and groups they name; each such attempt is
    /// one notice.
    private static func merge(_ layers: [ConfigLayer]) -> Merged {
        var resolved = Configuration()
        var exitPinHashFile: String?
        var notices: [ConfigNotice] = []
        var sites: [Site]?
        var chromeFromSystem = false
        let systemLayers = layers.filter(\.role.isSystemLayer)
        var locks = ConfigLocks()
        for layer in systemLayers {
            locks.groups.formUnion(layer.locks.groups)
            locks.keys.formUnion(layer.locks.keys)
        }
        /// The system-layer file that locks `key` (or its group).
        let lockedBy = { (key: ConfigKey) in systemLayers.first { $0.locks.covers(key) }?.file ?? "" }
        let system = systemLayers.first { $0.locks.groups.contains(ConfigSchema.sites) } ?? systemLayers.first
        for layer in layers {
            let isLocked = { (key: ConfigKey) in !layer.role.isSystemLayer && locks.covers(key) }
            for attempt in layer.attempts {
                if isLocked(attempt.key) {
                    notices.append(ConfigNotice(origin: layer.origin, line: attempt.line, message: tr("{key} is locked by {file}").filled(["key": attempt.key.description, "file": lockedBy(attempt.key)])))
                } else {
                    attempt.assignment?(&resolved)
                    if attempt.key == chromePoliciesKey, attempt.assignment != nil { chromeFromSystem = layer.role.isSystemLayer }
                    if attempt.key == ConfigSchema.exitPinHash, attempt.assignment != nil {
                        exitPinHashFile = layer.role == .commandLine ? nil : layer.file
                    }
                }
            }
            if let layerSites = layer.sites {
                if !layer.role.isSystemLayer, locks.groups.contains(ConfigSchema.sites) {
                    let sitesKey = ConfigKey(group: ConfigSchema.sites, name: "")
                    notices.append(ConfigNotice(origin: layer.origin, line: layer.sitesLine,
                                                message: tr("{key} is locked by {file}").filled(["key": ConfigSchema.sites, "file": lockedBy(sitesKey)])))
                } else {
                    sites = layerSites
                }
            }
        }
        resolved.sites = SiteList(sites ?? [])
        resolved.sources = layers.filter { $0.role != .commandLine }.map(\.file)
        // Where the sites should have been: the locking file, else the last file read.
        let sitesFile = locks.groups.contains(ConfigSchema.sites) ? system?.file : resolved.sources.last
        if resolved.kiosk.exitPinHash == nil { exitPinHashFile = nil }
        let lockingFile = { (key: ConfigKey) -> String? in locks.covers(key) ? lockedBy(key) : nil }
        return Merged(resolved: resolved, notices: notices, sites: sites, sitesFile: sitesFile, exitPinHashFile: exitPinHashFile,
                      chromeFromSystem: chromeFromSystem, sitesLocked: locks.groups.contains(ConfigSchema.sites), lockedBy: lockingFile)
    }

    private static let chromePoliciesKey = ConfigKey(group: "Policy", name: "chrome-policies")

    /// The layers applied.
    private struct Merged {
        var resolved: Configuration
        var notices: [ConfigNotice]
        var sites: [Site]?
        var sitesFile: String?
        var exitPinHashFile: String?
        /// Whether `[Policy] chrome-policies` in effect came from the system file or a drop-in.
        var chromeFromSystem: Bool
        var sitesLocked: Bool
        /// The system-layer file that locks a key, or nil when it is not locked.
        var lockedBy: (ConfigKey) -> String?
    }

    /// Chrome's HomepageLocation and RestoreOnStartupURLs become the sites when no Porthole file
    /// has a `[Sites]` group. Chrome still applies URLBlocklist to them, so a start page the URL
    /// lists block is not a site (a site would allow it): the policy is never wider than Chrome's.
    private static func applyStartPages(_ pages: [ChromePolicies.StartPage], to result: inout Merged, notices: inout [ConfigNotice]) {
        guard !pages.isEmpty else { return }
        if result.sites != nil {
            for page in pages {
                notices.append(ConfigNotice(origin: page.file + ":" + String(page.line ?? 0), line: page.line, message: tr("{policy} is not used: the sites come from [Sites] in {file}").filled(["policy": page.policy, "file": result.sitesFile ?? ""])))
            }
            return
        }
        if result.sitesLocked, !result.chromeFromSystem {
            for page in pages {
                notices.append(ConfigNotice(origin: page.file + ":" + String(page.line ?? 0), line: page.line, message: tr("{key} is locked by {file}").filled(["key": page.policy, "file": result.lockedBy(ConfigKey(group: ConfigSchema.sites, name: "")) ?? ""])))
            }
            return
        }
        let lists = SitePolicy(allow: result.resolved.allow, block: result.resolved.block)
        var sites: [Site] = []
        for page in pages {
            let site = Site(name: page.address, address: page.address)
            guard lists.isAllowed(site.url) else {
                notices.append(ConfigNotice(origin: page.file + ":" + String(page.line ?? 0), line: page.line, message: tr("{policy} \"{address}\" is not a site: the URL lists block it, as Chrome would").filled(["policy": page.policy, "address": page.address])))
                continue
            }
            sites.append(site)
        }
        guard !sites.isEmpty else { return }
        result.sites = sites
        result.resolved.sites = SiteList(sites)
    }
}

/// The part a file plays in the load.
enum ConfigRole {
    case system, dropIn, bundled, user, commandLineFile, commandLine

    /// The admin's files: the system file and its drop-ins, which may lock keys and are not
    /// held by the locks.
    var isSystemLayer: Bool { self == .system || self == .dropIn }

    func origin(_ file: String) -> String {
        switch self {
        case .system: tr("system file {file}").filled(["file": file])
        case .dropIn: tr("drop-in file {file}").filled(["file": file])
        case .bundled: tr("bundled file {file}").filled(["file": file])
        case .user: tr("user file {file}").filled(["file": file])
        case .commandLineFile: tr("--config file {file}").filled(["file": file])
        case .commandLine: ConfigLoader.commandLineOrigin
        }
    }
}
