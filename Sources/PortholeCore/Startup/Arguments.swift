// What a command-line argument asks the browser to open: a URL, a local file, or a host name.
import FoundationEssentials

public enum Arguments {
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let argument: String
        public let message: String
        public var description: String { "\(argument): \(message)" }
    }

    /// The URI to open for `argument`: a URL as written (the site policy decides whether it may
    /// load); an existing file as a `file://` URI (`fileURI` answers for the caller's working
    /// directory); a bare host name (`apple.com`, `localhost:8080/x`) over HTTPS.
    public static func target(for argument: String, fileURI: (String) -> String?) -> Result<String, Problem> {
        // Spaces and tabs, as Foundation's CharacterSet.whitespaces (Unicode Zs and tab).
        let isSpace = { (c: Character) in c == "\t" || c.unicodeScalars.allSatisfy { $0.properties.generalCategory == .spaceSeparator } }
        let trimmed = String(argument.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
        if trimmed.isEmpty || trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return .failure(Problem(argument: argument, message: tr("not a URL or a file name")))
        }
        if hasScheme(trimmed) {
            return .success(trimmed)
        }
        if let uri = fileURI(trimmed) {
            return .success(uri)
        }
        if looksLikeHost(trimmed) {
            return .success("https://" + trimmed)
        }
        return .failure(Problem(argument: argument, message: tr("not a URL, and there is no such file")))
    }

    /// Why the command line cannot be used before GApplication reads it, or nil. GOption keeps
    /// the last of a repeated `--config` silently; which file was meant is then a guess.
    /// Read with the options table (`CommandLineOptions`), as GOption reads it.
    public static func commandLineProblem(_ arguments: [String]) -> String? {
        CommandLineOptions.count(of: "config", in: Array(arguments.dropFirst())) > 1 ? tr("--config can be given only once") : nil
    }

    /// `scheme:` per RFC 3986: a letter, then letters, digits, `+`, `-` or `.`, then a colon —
    /// but not `host:port` (`example.com:8080`), where only digits follow the colon.
    static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon].unicodeScalars
        let isLetter = { (c: Unicode.Scalar) in ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
        guard let first = scheme.first, isLetter(first),
              scheme.allSatisfy({ isLetter($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) }) else { return false }
        let rest = text[text.index(after: colon)...]
        let port = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return port.isEmpty || !port.allSatisfy(\.isASCII) || !port.allSatisfy(\.isNumber)
    }

    /// A host name with a dot (or `localhost`), optionally with a port and path, and no spaces.
    static func looksLikeHost(_ text: String) -> Bool {
        guard !text.contains(" ") else { return false }
        let host = text.prefix { $0 != "/" && $0 != ":" && $0 != "?" && $0 != "#" }
        guard !host.isEmpty, !host.hasPrefix("."), !host.hasPrefix("-") else { return false }
        return host == "localhost" || host.contains(".")
    }
}
