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
        if let dir = environment["PORTHOLE_DATA_DIR"], !dir.isEmpty { return dir }
        var dir = URL(fileURLWithPath: executable).deletingLastPathComponent()
        let installed = dir.deletingLastPathComponent().appendingPathComponent("share/porthole")
        if hasDefaultConfig(installed.path) { return installed.path }
        for _ in 0..<5 {
            let candidate = dir.appendingPathComponent("Resources")
            if hasDefaultConfig(candidate.path) { return candidate.path }
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
