// The command line: the options GApplication parses, read back from its GVariantDict.
import CGLib
import GLibBridge
import PortholeCore

extension PortholeApplication {
    /// Gives GOption Porthole's own options from the one table the unknown-option check reads.
    func addOptions() {
        // GApplication keeps pointers to these strings: copies that live for the whole run.
        for option in CommandLineOptions.all where option.owner == .porthole {
            let argument = switch option.argument {
            case .none: G_OPTION_ARG_NONE
            case .file: G_OPTION_ARG_FILENAME
            case .string: G_OPTION_ARG_STRING
            case .operands: G_OPTION_ARG_FILENAME_ARRAY
            }
            let short = option.shortNames.first?.asciiValue.map { CChar(bitPattern: $0) } ?? 0
            g_application_add_main_option(gApplication, g_strdup(option.name), short, G_OPTION_FLAG_NONE, argument,
                                          g_strdup(option.help), option.argumentHelp.map { g_strdup($0) } ?? nil)
        }
        // TRANSLATORS: the command lines after "Admin tools:" stay as they are.
        g_application_set_option_context_summary(gApplication, tr("Porthole shows only the sites its configuration approves.\n\nAdmin tools:\n  porthole policy check [--allow FILTER]... [--block FILTER]... [URL...]\n  porthole --check-config [FILE...]\n  porthole status [--json] [--max-error-minutes N]\n  echo PIN | porthole --hash-pin"))
    }

    /// The `file://` URI of an existing file named on this process's command line, else nil.
    static func localFileURI(_ path: String) -> String? {
        existingFileURI(g_file_new_for_commandline_arg(path))
    }

    /// The URI of `file` (taken over) if it exists, else nil.
    static func existingFileURI(_ file: OpaquePointer?) -> String? {
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard g_file_query_exists(file, nil) != 0, let uri = g_file_get_uri(file) else { return nil }
        defer { g_free(uri) }
        return String(cString: uri)
    }
}

/// Reads a GVariantDict of parsed options.
struct OptionsDict {
    let dict: UnsafeMutablePointer<GVariantDict>?
    init(_ dict: UnsafeMutablePointer<GVariantDict>?) { self.dict = dict }

    func flag(_ name: String) -> Bool {
        g_variant_dict_contains(dict, name) != 0
    }

    func string(_ name: String) -> String? {
        guard let value = g_variant_dict_lookup_value(dict, name, nil) else { return nil }
        defer { g_variant_unref(value) }
        return g_variant_get_bytestring(value).map { String(cString: $0) }
    }

    var remaining: [String] {
        guard let value = g_variant_dict_lookup_value(dict, "", nil) else { return [] }
        defer { g_variant_unref(value) }
        guard let strings = g_variant_get_bytestring_array(value, nil) else { return [] }
        defer { g_free(strings) }
        var result: [String] = []
        var index = 0
        while let item = strings[index] {
            result.append(String(cString: item))
            index += 1
        }
        return result
    }
}
