// One configuration file parsed by GKeyFile, with typed reads and the line index for messages.
import CGLib

/// Owns a GKeyFile for the length of one load. Not Sendable: it never leaves the loader.
final class KeyFileDocument {
    /// The path, or `command line` for overrides.
    let file: String
    let lines: KeyFileLines
    private let keyFile: OpaquePointer

    /// Parses `bytes` (the text of `file`); a GKeyFile syntax error becomes a problem.
    init(file: String, bytes: [UInt8]) throws(ConfigProblem) {
        self.file = file
        lines = KeyFileLines(text: String(decoding: bytes, as: UTF8.self))
        keyFile = g_key_file_new()
        var error: UnsafeMutablePointer<GError>?
        let loaded = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                g_key_file_load_from_data(keyFile, chars.baseAddress, gsize(chars.count), G_KEY_FILE_NONE, &error)
            }
        }
        if loaded == 0 {
            let message = takeErrorMessage(error)
            throw ConfigProblem(file: file, line: lines.syntaxErrorLine(message: message), message: message)
        }
    }

    /// An in-memory document holding command-line overrides, whose keys the caller has checked.
    init(file: String, values: [(key: ConfigKey, value: String)]) {
        self.file = file
        lines = KeyFileLines(text: "")
        keyFile = g_key_file_new()
        for (key, value) in values {
            g_key_file_set_value(keyFile, key.group, key.name, value)
        }
    }

    deinit { g_key_file_unref(keyFile) }

    /// The bytes of the file at `path`, read with GLib so its reasons for failing are GLib's.
    static func contents(of path: String) throws(ConfigProblem) -> [UInt8] {
        var data: UnsafeMutablePointer<gchar>?
        var length: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        guard g_file_get_contents(path, &data, &length, &error) != 0, let data else {
            throw ConfigProblem(file: path, message: tr("cannot read: {reason}").filled(["reason": readFailure(error)]))
        }
        defer { g_free(data) }
        return data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { Array(UnsafeBufferPointer(start: $0, count: Int(length))) }
    }

    /// Groups in file order, each once (GKeyFile merges a group written twice).
    var groups: [String] {
        var count: gsize = 0
        return Self.strings(g_key_file_get_groups(keyFile, &count), count: count)
    }

    /// Keys of `group` in file order, each once (GKeyFile lists a repeated key twice).
    func keys(in group: String) -> [String] {
        var count: gsize = 0
        var seen = Set<String>()
        return Self.strings(g_key_file_get_keys(keyFile, group, &count, nil), count: count).filter { seen.insert($0).inserted }
    }

    func hasKey(_ key: ConfigKey) -> Bool {
        g_key_file_has_key(keyFile, key.group, key.name, nil) != 0
    }

    /// The value as `true`/`false` (or `1`/`0`), nil when it is neither.
    func boolean(_ key: ConfigKey) -> Bool? {
        var error: UnsafeMutablePointer<GError>?
        let value = g_key_file_get_boolean(keyFile, key.group, key.name, &error)
        if let error { g_error_free(error); return nil }
        return value != 0
    }

    /// The value as a C `int`, nil when it is not a whole number in range.
    func integer(_ key: ConfigKey) -> Int? {
        var error: UnsafeMutablePointer<GError>?
        let value = g_key_file_get_integer(keyFile, key.group, key.name, &error)
        if let error { g_error_free(error); return nil }
        return Int(value)
    }

    /// The value as a locale-independent decimal number, nil when it is not one. Surrounding
    /// spaces are allowed (`g_key_file_get_double` rejects trailing ones, which nobody can see).
    func number(_ key: ConfigKey) -> Double? {
        guard case .success(let text) = string(key), !text.isEmpty else { return nil }
        return text.withCString { start in
            var end: UnsafeMutablePointer<gchar>?
            let value = g_ascii_strtod(start, &end)
            return end.map { $0.pointee == 0 } == true ? value : nil
        }
    }

    /// The value with escapes (`\s`, `\n`, `\t`, `\\`) decoded and surrounding spaces removed;
    /// GLib's message when it has a bad escape or is not UTF-8.
    func string(_ key: ConfigKey) -> Result<String, InvalidConfigValue> {
        var error: UnsafeMutablePointer<GError>?
        let value = g_key_file_get_string(keyFile, key.group, key.name, &error)
        defer { g_free(value) }
        // GLib returns what it could decode even when it also reports a bad escape.
        guard error == nil, let value else { return .failure(Self.textFailure(error)) }
        return .success(String(cString: value).trimmingKeyFileSpaces())
    }

    /// The `;`-separated entries (`\;` for a literal semicolon), each without surrounding spaces;
    /// empty entries are dropped so that `a; b;` means `a` and `b`.
    func stringList(_ key: ConfigKey) -> Result<[String], InvalidConfigValue> {
        var count: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        let list = Self.strings(g_key_file_get_string_list(keyFile, key.group, key.name, &count, &error), count: count)
        // An empty value is an empty list, which GLib returns as NULL without an error.
        guard error == nil else { return .failure(Self.textFailure(error)) }
        return .success(list.map { $0.trimmingKeyFileSpaces() }.filter { !$0.isEmpty })
    }

    /// Why a value is not text. GLib's own messages repeat the key and do not say what is wrong.
    private static func textFailure(_ error: UnsafeMutablePointer<GError>?) -> InvalidConfigValue {
        guard let error, error.pointee.domain == g_key_file_error_quark() else { return InvalidConfigValue(takeErrorMessage(error)) }
        switch GKeyFileError(UInt32(error.pointee.code)) {
        case G_KEY_FILE_ERROR_UNKNOWN_ENCODING:
            g_error_free(error)
            return InvalidConfigValue(tr("not UTF-8 text"))
        case G_KEY_FILE_ERROR_INVALID_VALUE:
            g_error_free(error)
            return InvalidConfigValue(tr("invalid escape sequence: use \\s, \\n, \\t, \\r, \\\\, and \\; in lists"))
        default:
            return InvalidConfigValue(takeErrorMessage(error))
        }
    }

    /// Copies a NULL-terminated string vector and frees it.
    private static func strings(_ vector: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?, count: gsize) -> [String] {
        guard let vector else { return [] }
        defer { g_strfreev(vector) }
        return (0..<Int(count)).compactMap { vector[$0].map { String(cString: $0) } }
    }

    /// A short reason for the common failures; GLib's own message (which repeats the path) otherwise.
    private static func readFailure(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error, error.pointee.domain == g_file_error_quark() else { return takeErrorMessage(error) }
        switch GFileError(UInt32(error.pointee.code)) {
        case G_FILE_ERROR_NOENT: g_error_free(error); return tr("no such file")
        case G_FILE_ERROR_ACCES, G_FILE_ERROR_PERM: g_error_free(error); return tr("permission denied")
        case G_FILE_ERROR_ISDIR: g_error_free(error); return tr("is a directory")
        default: return takeErrorMessage(error)
        }
    }
}

/// Why a value cannot be used: one message per wrong part (a list can have several bad entries).
struct InvalidConfigValue: Error {
    var messages: [String]

    init(_ message: String) { messages = [message] }
    init(messages: [String]) { self.messages = messages }
}
