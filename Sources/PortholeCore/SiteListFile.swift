// Reads the `[Sites]` group of a GLib keyfile into a SiteList, keeping the file's order.
import CGLib

public struct ConfigProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var key: String?
    public var message: String

    public init(file: String, line: Int? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// `file:line: key: message`, leaving out what is unknown.
    public var description: String {
        var parts = [line.map { "\(file):\($0)" } ?? file]
        if let key { parts.append(key) }
        parts.append(message)
        return parts.joined(separator: ": ")
    }
}

public enum SiteListFile {
    public static let group = "Sites"

    /// The sites of `[Sites]` in `path`, in file order.
    public static func load(path: String) throws(ConfigProblem) -> SiteList {
        let keyFile = g_key_file_new()
        defer { g_key_file_unref(keyFile) }
        var error: UnsafeMutablePointer<GError>?
        guard g_key_file_load_from_file(keyFile, path, G_KEY_FILE_NONE, &error) != 0 else {
            throw ConfigProblem(file: path, message: takeMessage(error))
        }
        return try sites(in: keyFile, file: path)
    }

    /// The sites of `[Sites]` in an already loaded keyfile.
    public static func sites(in keyFile: OpaquePointer?, file: String) throws(ConfigProblem) -> SiteList {
        var count = 0
        guard let keys = g_key_file_get_keys(keyFile, group, &count, nil) else {
            throw ConfigProblem(file: file, message: "no [\(group)] group: list at least one approved site")
        }
        defer { g_strfreev(keys) }
        var sites: [Site] = []
        for index in 0..<count {
            guard let key = keys[index] else { continue }
            guard let value = g_key_file_get_string(keyFile, group, key, nil) else { continue }
            defer { g_free(value) }
            sites.append(Site(name: String(cString: key), address: String(cString: value)))
        }
        return SiteList(sites)
    }

    static func takeMessage(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return String(cString: error.pointee.message)
    }
}
