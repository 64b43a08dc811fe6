// Every option `porthole --help-all` lists, once: Porthole's own are given to GOption from this
// table, and the check that runs before GLib parses the command line accepts exactly these.

public struct CommandLineOption: Equatable, Sendable {
    /// Who declares the option to GOption: Porthole (from this table), or GLib and GTK themselves
    /// (listed here so that the check lets them through to GLib and GTK).
    public enum Owner: Equatable, Sendable { case porthole, glib, gtk }
    public enum Argument: Equatable, Sendable {
        case none, file, string
        /// The operands (`G_OPTION_REMAINING`): the URL or files after the options.
        case operands
    }

    /// The long name, without its dashes (empty for the operands).
    public let name: String
    /// The one-letter spellings, without their dash (`-h`, `-?`).
    public let shortNames: [Character]
    public let argument: Argument
    public let owner: Owner
    /// What `--help` says of it, and the name of its value (Porthole's own only).
    public let help: String
    public let argumentHelp: String?

    public init(_ name: String, shortNames: [Character] = [], _ argument: Argument = .none, owner: Owner = .porthole,
                help: String = "", argumentHelp: String? = nil) {
        self.name = name
        self.shortNames = shortNames
        self.argument = argument
        self.owner = owner
        self.help = help
        self.argumentHelp = argumentHelp
    }

    /// How the option is written on a command line: `--name`, then each `-x`.
    public var spellings: [String] {
        name.isEmpty ? [] : ["--" + name] + shortNames.map { "-" + String($0) }
    }
}

public enum CommandLineOptions {
    /// The options in `--help-all`'s groups: GOption's help, GApplication's, GTK's, then Porthole's.
    public static var all: [CommandLineOption] {
        [
            CommandLineOption("help", shortNames: ["h", "?"], owner: .glib),
            CommandLineOption("help-all", owner: .glib),
            CommandLineOption("help-gapplication", owner: .glib),
            CommandLineOption("help-gtk", owner: .gtk),
            CommandLineOption("gapplication-service", owner: .glib),
            CommandLineOption("class", .string, owner: .gtk),
            CommandLineOption("name", .string, owner: .gtk),
            CommandLineOption("gtk-module", .string, owner: .gtk),
            CommandLineOption("g-fatal-warnings", owner: .gtk),
            CommandLineOption("display", .string, owner: .gtk),
            // TRANSLATORS: FILE is the --config option's argument, as `porthole --help` shows it.
            CommandLineOption("config", .file, help: tr("Read the configuration from FILE instead of the user's file"), argumentHelp: tr("FILE")),
            CommandLineOption("check-config", help: tr("Check the configuration (or each FILE) and print every problem; exit 1 if any")),
            CommandLineOption("private", help: tr("Keep no website data (cookies, storage, cache) after quitting")),
            CommandLineOption("kiosk", help: tr("Run fullscreen and locked down, as [Kiosk] enabled=true does")),
            CommandLineOption("hash-pin", help: tr("Read a kiosk exit PIN from standard input and print its exit-pin-hash= line")),
            CommandLineOption("version", help: tr("Print the version and exit")),
            CommandLineOption("", .operands, argumentHelp: tr("[URL|FILE]")),
        ]
    }

    /// The first option in `arguments` (without the program name) that is not in `options`, or
    /// nil. GOptionContext would refuse it with exit status 1; Porthole's documented status for a
    /// bad command line is 2.
    public static func unknownOption(in arguments: [String], options: [CommandLineOption] = all) -> String? {
        scan(arguments, options: options).unknown
    }

    /// The value given to the option spelt `--name` (`--name=VALUE` or `--name VALUE`; the last
    /// one given), or nil (also when an option is unknown: the command line is refused then).
    public static func value(of name: String, in arguments: [String], options: [CommandLineOption] = all) -> String? {
        let scan = scan(arguments, options: options)
        guard scan.unknown == nil else { return nil }
        return scan.given.last { $0.option.name == name }?.value
    }

    /// How many times the option spelt `--name` is given in `arguments` (without the program name).
    public static func count(of name: String, in arguments: [String], options: [CommandLineOption] = all) -> Int {
        scan(arguments, options: options).given.count { $0.option.name == name }
    }

    private struct Scan {
        var given: [(option: CommandLineOption, value: String?)] = []
        /// The first argument that is no option of the table's (the scan reads on past it).
        var unknown: String?
    }

    /// The options in `arguments`, up to `--` (the rest are operands), with their values.
    private static func scan(_ arguments: [String], options: [CommandLineOption]) -> Scan {
        var scan = Scan()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" { break }
            guard argument.hasPrefix("-"), argument != "-" else { continue }
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let option = options.first(where: { $0.spellings.contains(parts[0]) }) else {
                if scan.unknown == nil { scan.unknown = argument }
                continue
            }
            switch option.argument {
            case .none, .operands:
                guard parts.count == 1 else {
                    if scan.unknown == nil { scan.unknown = argument }
                    continue
                }
                scan.given.append((option, nil))
            case .file, .string:
                if parts.count == 2 {
                    scan.given.append((option, parts[1]))
                } else {
                    scan.given.append((option, index < arguments.count ? arguments[index] : nil))
                    index += 1  // its value, whatever it looks like
                }
            }
        }
        return scan
    }
}
