// What the About window and `porthole --version` say about Porthole itself.

import FoundationEssentials

public enum AboutPorthole {
    public static let name = "Porthole"
    public static let version = "0.1.0"
    /// Porthole's licence as an SPDX identifier: the one place to change it.
    public static let licence = "GPL-3.0-or-later"

    /// Porthole's icon as a file when it is not installed in an icon theme: the SVG in the source
    /// tree's `Resources`, found from the executable (`.build/debug/porthole`) up; nil elsewhere.
    public static func logoFile(executable: String = DataDirectory.executablePath(),
                                exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> String? {
        var dir = URL(fileURLWithPath: executable).deletingLastPathComponent()
        for _ in 0..<5 {
            let candidate = dir.appendingPathComponent("Resources/dev.porthole.Porthole.svg").path
            if exists(candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }
}
