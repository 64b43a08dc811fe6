// What the About window and `porthole --version` say about Porthole itself.

public enum AboutPorthole {
    public static let name = "Porthole"
    public static let version = "0.1.0"
    /// Porthole's licence as an SPDX identifier: the one place to change it.
    public static let licence = "GPL-3.0-or-later"
}
