// Where configuration files are looked for, injectable so tests can use temporary directories.
import FoundationEssentials

/// The candidate configuration files. Each path is used only if it names an existing file,
/// except `commandLine`, which must exist because the user asked for it.
///
/// The system file is the base layer and the only place locks are honoured. The user file, or
/// `--config FILE` in its place, overrides it key by key. The bundled default is read only when
/// there is neither a system file nor a user file.
public struct ConfigSources: Sendable, Equatable {
    /// `--config FILE`: replaces the user file.
    public var commandLine: String?
    /// `$XDG_CONFIG_HOME/porthole/porthole.conf`.
    public var user: String?
    /// `/etc/porthole/porthole.conf`.
    public var system: String?
    /// `/etc/porthole/porthole.conf.d`: the admin's drop-in files (`*.conf`), read after the
    /// system file in lexical order as part of the system layer.
    public var systemDropIns: String?
    /// The default shipped in the data directory.
    public var bundled: String?

    public init(commandLine: String? = nil, user: String? = nil, system: String? = nil, systemDropIns: String? = nil,
                bundled: String? = nil) {
        self.commandLine = commandLine
        self.user = user
        self.system = system
        self.systemDropIns = systemDropIns
        self.bundled = bundled
    }

    /// The system file's path. Fixed rather than read from the environment: it carries the
    /// admin's locks, and a user who could point it elsewhere could lift them.
    public static let systemPath = "/etc/porthole/porthole.conf"
    /// The drop-in directory's path, fixed for the same reason.
    public static let systemDropInPath = "/etc/porthole/porthole.conf.d"

    /// The sources Porthole reads: `commandLine` from `--config`; the user file under
    /// `$XDG_CONFIG_HOME` (an absolute path, per the XDG Base Directory spec) or `$HOME/.config`;
    /// the system file; the bundled default in `dataDirectory`.
    public static func standard(commandLine: String?,
                                environment: [String: String] = ProcessInfo.processInfo.environment,
                                dataDirectory: String? = DataDirectory.locate()) -> ConfigSources {
        let configHome: String?
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            configHome = xdg
        } else if let home = environment["HOME"], !home.isEmpty {
            configHome = home + "/.config"
        } else {
            configHome = nil
        }
        return ConfigSources(commandLine: commandLine,
                             user: configHome.map { $0 + "/porthole/porthole.conf" },
                             system: systemPath,
                             systemDropIns: systemDropInPath,
                             bundled: dataDirectory.map { $0 + "/" + DataDirectory.defaultConfigName })
    }
}
