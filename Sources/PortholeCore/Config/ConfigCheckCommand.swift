// `porthole --check-config [FILE]`: load the configuration as Porthole would and report on it.
import FoundationEssentials

public enum ConfigCheckCommand {
    /// Loads what `porthole` would load (with `--config FILE` when `path` is given, or the system
    /// file alone when `path` is the system file) and reports it: every notice and problem on
    /// `err`, one a line; on success `FILE: ok` on `out` for each file read. Returns the exit
    /// status: 1 when there is any problem, else 0.
    public static func run(path: String?, sources: ConfigSources, validateFilter: @escaping FilterValidator,
                           out: (String) -> Void, err: (String) -> Void) -> Int32 {
        var checked = sources
        if let path {
            if let system = sources.system, sameFile(path, system) {
                checked = ConfigSources(system: system)
            } else {
                checked.commandLine = path
            }
        }
        let result = ConfigLoader.load(sources: checked, validateFilter: validateFilter)
        result.notices.forEach { err($0.description) }
        result.problems.forEach { err($0.description) }
        guard result.problems.isEmpty else { return 1 }
        result.sources.forEach { out("\($0): ok") }
        return 0
    }

    private static func sameFile(_ a: String, _ b: String) -> Bool {
        let canonical = { (path: String) in URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path }
        return canonical(a) == canonical(b)
    }
}
