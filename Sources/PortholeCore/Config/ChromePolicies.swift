// `[Policy] chrome-policies=DIR`: the URL lists of Chrome's managed policy files, read with
// JSON-GLib, so one list serves Chrome, Chromium and Porthole.
import CGLib
import CJsonGlib
import FoundationEssentials

/// The URL filters found in the `*.json` files of a Chrome policy directory (like
/// `/etc/opt/chrome/policies/managed` or `/etc/chromium/policies/managed`).
struct ChromePolicies: Equatable {
    var allow: [String] = []
    var block: [String] = []
    /// The files read, in name order.
    var files: [String] = []
    var problems: [ConfigProblem] = []

    /// The policies read, with the list each one feeds. The old names are what Chrome read before
    /// version 86 and still reads (https://chromeenterprise.google/policies/#URLAllowlist).
    static let lists: [(name: String, isAllow: Bool)] = [
        ("URLAllowlist", true), ("URLWhitelist", true), ("URLBlocklist", false), ("URLBlacklist", false),
    ]

    /// Reads every `*.json` in `directory`. Other policies in the files are Chrome's business
    /// and are ignored; a file that is not JSON, a list that is not a list of strings and a filter
    /// that is not valid are problems, located at line:column.
    static func read(directory: String, validateFilter: FilterValidator) -> ChromePolicies {
        var policies = ChromePolicies()
        var error: UnsafeMutablePointer<GError>?
        guard let dir = g_dir_open(directory, 0, &error) else {
            policies.problems.append(ConfigProblem(file: directory, key: "Policy/chrome-policies",
                                                   message: tr("cannot read the Chrome policy folder: {reason}")
                                                       .replacing("{reason}", with: takeErrorMessage(error))))
            return policies
        }
        var names: [String] = []
        while let entry = g_dir_read_name(dir) {
            let name = String(cString: entry)
            if !name.hasPrefix("."), name.hasSuffix(".json") { names.append(name) }
        }
        g_dir_close(dir)
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let file = directory + "/" + name
            policies.files.append(file)
            do throws(ConfigProblem) {
                policies.read(file: file, bytes: try KeyFileDocument.contents(of: file), validateFilter: validateFilter)
            } catch {
                policies.problems.append(error)
            }
        }
        return policies
    }

    /// Reads one file's lists from `bytes`.
    mutating func read(file: String, bytes: [UInt8], validateFilter: FilterValidator) {
        let text = String(decoding: bytes, as: UTF8.self)
        let parser = json_parser_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(parser)) }
        var error: UnsafeMutablePointer<GError>?
        let loaded = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: gchar.self) { json_parser_load_from_data(parser, $0.baseAddress, gssize(buffer.count), &error) }
        }
        guard loaded != 0 else {
            problems.append(Self.parseProblem(file: file, message: takeErrorMessage(error)))
            return
        }
        guard let root = json_parser_get_root(parser), json_node_get_node_type(root) == JSON_NODE_OBJECT,
              let object = json_node_get_object(root) else {
            problems.append(ConfigProblem(file: file, line: 1, column: 1,
                                          message: tr("expected a JSON object of policies, like {\"URLBlocklist\": [\"*\"]}")))
            return
        }
        for (name, isAllow) in Self.lists where json_object_has_member(object, name) != 0 {
            let position = Self.position(of: "\"" + name + "\"", in: text)
            guard let node = json_object_get_member(object, name), json_node_get_node_type(node) == JSON_NODE_ARRAY,
                  let array = json_node_get_array(node) else {
                problems.append(ConfigProblem(file: file, line: position?.line, column: position?.column, key: name,
                                              message: tr("expected a list of URL filters, like [\"example.com\"]")))
                continue
            }
            for index in 0..<json_array_get_length(array) {
                guard let element = json_array_get_element(array, index), json_node_get_node_type(element) == JSON_NODE_VALUE,
                      let value = json_node_get_string(element) else {
                    problems.append(ConfigProblem(file: file, line: position?.line, column: position?.column, key: name,
                                                  message: tr("entry {index} is not a string").replacing("{index}", with: String(index + 1))))
                    continue
                }
                let filter = String(cString: value)
                if let reason = validateFilter(filter) {
                    let at = Self.position(of: Self.jsonLiteral(filter), in: text, after: position) ?? position
                    problems.append(ConfigProblem(file: file, line: at?.line, column: at?.column, key: name,
                                                  message: tr("\"{filter}\" is not a valid filter: {reason}")
                                                      .replacing("{filter}", with: filter)
                                                      .replacing("{reason}", with: reason)))
                } else if isAllow {
                    if !allow.contains(filter) { allow.append(filter) }
                } else if !block.contains(filter) {
                    block.append(filter)
                }
            }
        }
    }

    /// JSON-GLib's parse errors read `<data>:LINE:COLUMN: Parse error: …`; the position goes where
    /// every other problem has it.
    private static func parseProblem(file: String, message: String) -> ConfigProblem {
        let fields = message.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        if fields.count == 4, let line = Int(fields[1]), let column = Int(fields[2]) {
            return ConfigProblem(file: file, line: line, column: column,
                                 message: tr("not valid JSON: {reason}")
                                     .replacing("{reason}", with: reason(fields[3])))
        }
        return ConfigProblem(file: file, message: tr("not valid JSON: {reason}").replacing("{reason}", with: message))
    }

    /// The parser's words after "Parse error:", which the message already says in other words.
    private static func reason(_ text: Substring) -> String {
        let trimmed = String(text).trimmingWhitespace
        return trimmed.hasPrefix("Parse error: ") ? String(trimmed.dropFirst("Parse error: ".count)) : trimmed
    }

    /// `text` as a JSON string literal written the plain way (what an admin's file has).
    private static func jsonLiteral(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }

    /// Line and column (from 1, in characters) of the first `needle` in `text` at or after `start`.
    private static func position(of needle: String, in text: String, after start: (line: Int, column: Int)? = nil)
        -> (line: Int, column: Int)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (offset, line) in lines.enumerated() {
            let number = offset + 1
            if let start, number < start.line { continue }
            var searched = Substring(line)
            if let start, number == start.line { searched = line.dropFirst(start.column - 1) }
            if let range = searched.firstRange(of: needle) {
                return (number, line.distance(from: line.startIndex, to: range.lowerBound) + 1)
            }
        }
        return nil
    }
}
