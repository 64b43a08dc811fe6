// One configuration file parsed by GKeyFile, with typed reads and the line index for messages.
import CGLib

/// Owns a GKeyFile for the length of one load. Not Sendable: it never leaves the loader.
final class KeyFileDocument {
    /// The path, or `command line` for overrides.
    let file: String
    let lines: KeyFileLines
    private let keyFile: OpaquePointer

    /// Parses `bytes` (the text of `file`); a GKeyFile syntax error becomes a problem. A UTF-8
    /// byte order mark at the start is skipped (some Windows editors write one).
    init(file: String, bytes: [UInt8]) throws(ConfigProblem) {
        self.file = file
        var bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        try Self.checkText(bytes, file: file)
        lines = KeyFileLines(bytes: bytes)
        keyFile = g_key_file_new()
        var error: UnsafeMutablePointer<GError>?
        let loaded = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                g_key_file_load_from_data(keyFile, chars.baseAddress, gsize(chars.count), G_KEY_FILE_NONE, &error)
            }
        }
        if loaded == 0 {
            let message = takeErrorMessage(error)
            throw ConfigProblem(file: file, line: lines.syntaxErrorLine(message: message) ?? 0, message: message)
        }
    }

    /// An in-memory document holding command-line overrides, whose keys the caller has checked.
    init(file: String, values: [(key: ConfigKey, value: String)]) {
        self.file = file
        lines = KeyFileLines(bytes: [])
        keyFile = g_key_file_new()
        for (key, value) in values {
            g_key_file_set_value(keyFile, key.group, key.name, value)
        }
    }

    deinit { g_key_file_unref(keyFile) }

    /// The bytes of the file at `path`: a regular file of at most 16 MiB, read until two reads a
    /// moment apart agree (see `ConfigFileReader`).
    static func contents(of path: String, reader: ConfigFileReader = .standard) throws(ConfigProblem) -> [UInt8] {
        try reader.read(path)
    }

    /// What GKeyFile would pass over silently: a NUL byte ends a value early (`allow=evil.example`
    /// from `allow=evil.example\0junk`), and group and key names that are not UTF-8 cannot be
    /// shown. Each is a problem on its line. Values that are not UTF-8 are reported per key.
    private static func checkText(_ bytes: [UInt8], file: String) throws(ConfigProblem) {
        // On bytes, one pass: a file of 100,000 sites is read on every start and reload.
        let problem: (line: Int, message: String)? = bytes.withUnsafeBufferPointer { text in
            var number = 0
            var start = 0
            while start <= text.count {
                number += 1
                var end = start
                while end < text.count, text[end] != 0x0A {
                    if text[end] == 0 { return (number, tr("contains a NUL byte, which a text file cannot hold")) }
                    end += 1
                }
                defer { start = end + 1 }
                var first = start
                while first < end, text[first] == 0x20 || text[first] == 0x09 { first += 1 }
                if first < end, text[first] == UInt8(ascii: "#") { continue }
                var nameEnd = end
                if first == end || text[first] != UInt8(ascii: "[") {
                    nameEnd = first
                    while nameEnd < end, text[nameEnd] != UInt8(ascii: "=") { nameEnd += 1 }
                }
                let name = UnsafeBufferPointer(rebasing: text[first..<nameEnd])
                if name.contains(where: { $0 >= 0x80 }), String(validating: name, as: UTF8.self) == nil {
                    return (number, tr("not UTF-8 text"))
                }
            }
            return nil
        }
        if let problem { throw ConfigProblem(file: file, line: problem.line, message: problem.message) }
    }

    /// Groups in file order, each once (GKeyFile merges a group written twice).
    var groups: [String] {
        var count: gsize = 0
        return Self.strings(g_key_file_get_groups(keyFile, &count), count: count)
    }

    /// Keys of `group` in file order, each once (GKeyFile lists a repeated key twice).
    func keys(in group: String) -> [String] {
        var count: gsize = 0
        let keys = Self.strings(g_key_file_get_keys(keyFile, group, &count, nil), count: count)
        var seen = Set<String>(minimumCapacity: keys.count)
        return keys.filter { seen.insert($0).inserted }
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
        let value = key.group.withCString { group in key.name.withCString { g_key_file_get_string(keyFile, group, $0, &error) } }
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
        var entries: [String] = []
        entries.reserveCapacity(list.count)
        for item in list {
            let entry = item.trimmingKeyFileSpaces()
            if !entry.isEmpty { entries.append(entry) }
        }
        return .success(entries)
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
        var strings: [String] = []
        strings.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            if let string = vector[index] { strings.append(String(cString: string)) }
        }
        return strings
    }
}

/// Why a value cannot be used: one message per wrong part (a list can have several bad entries).
struct InvalidConfigValue: Error {
    var messages: [String]

    init(_ message: String) { messages = [message] }
    init(messages: [String]) { self.messages = messages }
}
