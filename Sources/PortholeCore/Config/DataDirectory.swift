// Where Porthole's bundled data (default config, icon, pages' assets) lives, installed or in a checkout.
import FoundationEssentials

public enum DataDirectory {
    /// The name of the bundled default configuration inside the data directory.
    public static let defaultConfigName = "porthole.conf"

    /// The data directory: `$PORTHOLE_DATA_DIR`; else `PREFIX/share/porthole` beside an installed
    /// binary (`PREFIX/bin/porthole`); else the `Resources/` folder of the checkout the binary was
    /// built in (`.build/<triple>/<config>/porthole`).
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment,
                              executable: String = executablePath()) -> String? {
        find(variable: "PORTHOLE_DATA_DIR", installed: "share/porthole", inCheckout: "Resources", holds: hasDefaultConfig,
             environment: environment, executable: executable)
    }

    /// A folder of Porthole's files, for the data and the translations alike: `$variable`; else
    /// `PREFIX/installed` beside an installed binary (`PREFIX/bin/porthole`); else a folder named
    /// `inCheckout` beside the binary or up to four folders above it. The first that `holds`
    /// accepts (the variable is taken as it is).
    static func find(variable: String, installed: String, inCheckout: String, holds: (String) -> Bool,
                     environment: [String: String], executable: String) -> String? {
        if let dir = environment[variable], !dir.isEmpty { return dir }
        var dir = URL(fileURLWithPath: executable).deletingLastPathComponent()
        let prefix = dir.deletingLastPathComponent().appendingPathComponent(installed)
        if holds(prefix.path) { return prefix.path }
        for _ in 0..<5 {
            let candidate = dir.appendingPathComponent(inCheckout)
            if holds(candidate.path) { return candidate.path }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    /// The running binary's real path (symlinks resolved), from `/proc/self/exe`.
    public static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    private static func hasDefaultConfig(_ dir: String) -> Bool {
        FileManager.default.fileExists(atPath: dir + "/" + defaultConfigName)
    }
}
