// The name of one configuration setting: a keyfile group and a key inside it.

public struct ConfigKey: Sendable, Hashable, CustomStringConvertible {
    public var group: String
    public var name: String

    public init(group: String, name: String) {
        self.group = group
        self.name = name
    }

    /// `Group/key`, the spelling used in messages and in `[Locks] keys=`.
    public var description: String { "\(group)/\(name)" }

    /// `--private`: browse without storing anything on disk.
    public static let ephemeral = ConfigKey(group: "Privacy", name: "ephemeral")
    /// `--kiosk`: full-screen kiosk mode.
    public static let kioskEnabled = ConfigKey(group: "Kiosk", name: "enabled")
}
