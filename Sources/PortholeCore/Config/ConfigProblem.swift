// What the config loader reports: problems (the file is wrong, so the browser fails closed) and notices.

/// Something wrong in a configuration file, located as precisely as the file allows.
public struct ConfigProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's path as it was given, or `command line` for an override.
    public var file: String
    /// The line, counted from 1; 0 for the file (or folder) as a whole, such as one that cannot
    /// be read; nil only for the command line's overrides, which have no file.
    public var line: Int?
    /// The column on `line`, counted from 1, where the file's format locates it (JSON).
    public var column: Int?
    /// `Group/key`, `[Group]` for a whole group, or nil for the file as a whole.
    public var key: String?
    public var message: String
    /// The file was changing while it was read: reading it again later may succeed, so a reload
    /// keeps the running configuration instead of failing closed.
    public var isTransient = false

    public init(file: String, line: Int? = nil, column: Int? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.message = message
    }

    /// `file:line: key: message` (`file:line:column:` where the column is known), leaving out what
    /// is unknown. Always one line, with control characters escaped (see
    /// `escapingControlCharacters`): a quoted value may hold anything.
    public var description: String {
        var parts = [line.map { "\(file):\($0)" + (column.map { ":\($0)" } ?? "") } ?? file]
        if let key { parts.append(key) }
        parts.append(message)
        return parts.joined(separator: ": ").escapingControlCharacters
    }
}

extension String {
    /// The text on one line and safe for a terminal: line breaks, tabs and every other control
    /// character (C0, DEL, C1 such as NEL and the CSI that starts an escape sequence), the Unicode
    /// line and paragraph separators and the bidirectional overrides are written as escapes
    /// (`\n`, `\r`, `\t`, `\x1b`, `\u2028`), so that a hostile value cannot rewrite what an
    /// admin's terminal shows.
    var escapingControlCharacters: String {
        func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
                || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E || value == 0x200F
        }
        guard unicodeScalars.contains(where: needsEscape) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x100 && needsEscape(scalar):
                out += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            case _ where needsEscape(scalar):
                out += "\\u" + String(scalar.value, radix: 16)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// Something the admin or user should know that does not stop the configuration from loading:
/// an attempt to change a key the system file locks, or locks written where they are not honoured.
/// The caller reports each notice once (stderr and the log).
public struct ConfigNotice: Sendable, Equatable, CustomStringConvertible {
    /// Who tried: `user file PATH`, `--config file PATH` or `command line`.
    public var origin: String
    /// The line of the attempt, when it came from a file.
    public var line: Int?
    public var message: String

    public init(origin: String, line: Int? = nil, message: String) {
        self.origin = origin
        self.line = line
        self.message = message
    }

    /// `origin: message`, e.g. `user file /home/u/.config/porthole/porthole.conf: Policy/block is
    /// locked by /etc/porthole/porthole.conf`.
    public var description: String { "\(origin): \(message)".escapingControlCharacters }
}
