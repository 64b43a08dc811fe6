// `porthole --check-config [FILE]`: load the configuration as Porthole would and report on it.
import FoundationEssentials
import Glibc

public enum ConfigCheckCommand {
    /// Loads what `porthole` would load (with `--config FILE` when `path` is given, or the system
    /// file and its drop-ins alone when `path` is the system file) and reports it: every notice and problem on
    /// `err`, one a line; on success `FILE: ok` on `out` for each file read. Returns the exit
    /// status: 1 when there is any problem, else 0.
    public static func run(path: String?, sources: ConfigSources, validateFilter: @escaping FilterValidator,
                           out: (String) -> Void, err: (String) -> Void) -> Int32 {
        let result = ConfigLoader.load(sources: path.map { self.sources(checking: $0, in: sources) } ?? sources, validateFilter: validateFilter)
        result.notices.forEach { err($0.description) }
        if let file = result.exitPinHashFile, let warning = readableByOthers(file) { err(warning) }
        result.problems.forEach { err($0.description) }
        guard result.problems.isEmpty else { return 1 }
        result.sources.forEach { out("\($0): ok") }
        return 0
    }

    /// What checking `path` loads: the file as `--config FILE`, or the system file and its
    /// drop-ins alone when `path` is the system file. `porthole policy check --config` loads the same.
    public static func sources(checking path: String, in sources: ConfigSources) -> ConfigSources {
        if let system = sources.system, sameFile(path, system) {
            return ConfigSources(system: system, systemDropIns: sources.systemDropIns)
        }
        var checked = sources
        checked.commandLine = path
        return checked
    }

    /// A warning when users other than the file's owner and group can read `file`, which holds the
    /// exit PIN's hash: with it anyone can try PINs offline, without the kiosk's lockout.
    static func readableByOthers(_ file: String) -> String? {
        var info = stat()
        guard stat(file, &info) == 0, info.st_mode & 0o004 != 0 else { return nil }
        return file + ": " + tr("warning: every user can read this file, which holds the exit PIN's hash; let only root and the kiosk user read it (chmod 640, group of the kiosk user)")
    }

    /// `--check-config FILE...`: checks each file in turn as `run(path:)` does; the status is
    /// the worst of them. Without files, the configuration Porthole would load.
    public static func run(paths: [String], sources: ConfigSources, validateFilter: @escaping FilterValidator,
                           out: (String) -> Void, err: (String) -> Void) -> Int32 {
        guard !paths.isEmpty else { return run(path: nil, sources: sources, validateFilter: validateFilter, out: out, err: err) }
        return paths.map { run(path: $0, sources: sources, validateFilter: validateFilter, out: out, err: err) }.max() ?? 0
    }

    private static func sameFile(_ a: String, _ b: String) -> Bool {
        let canonical = { (path: String) in URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path }
        return canonical(a) == canonical(b)
    }
}
