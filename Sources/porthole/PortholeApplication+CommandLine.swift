// The command line: the options GApplication parses, read back from its GVariantDict.
import CGLib
import GLibBridge
import PortholeCore

extension PortholeApplication {
    /// The options addOptions declares, with GApplication's own; checked before GLib parses them.
    static let flagOptions: Set<String> = ["--check-config", "--private", "--kiosk", "--hash-pin", "--version", "--help", "-h", "-?",
                                           "--help-all", "--help-gapplication", "--gapplication-service"]
    static let valuedOptions: Set<String> = ["--config"]

    func addOptions() {
        // GApplication keeps pointers to these strings: translated copies that live for the whole run.
        func add(_ name: StaticString, _ arg: GOptionArg, _ description: String, _ argDescription: String? = nil) {
            g_application_add_main_option(gApplication, name.cString, 0, G_OPTION_FLAG_NONE, arg,
                                          g_strdup(description), argDescription.map { g_strdup($0) } ?? nil)
        }
        // TRANSLATORS: FILE is the --config option's argument, as `porthole --help` shows it.
        add("config", G_OPTION_ARG_FILENAME, tr("Read the configuration from FILE instead of the user's file"), tr("FILE"))
        add("check-config", G_OPTION_ARG_NONE, tr("Check the configuration (or each FILE) and print every problem; exit 1 if any"))
        add("private", G_OPTION_ARG_NONE, tr("Keep no website data (cookies, storage, cache) after quitting"))
        add("kiosk", G_OPTION_ARG_NONE, tr("Run fullscreen and locked down, as [Kiosk] enabled=true does"))
        add("hash-pin", G_OPTION_ARG_NONE, tr("Read a kiosk exit PIN from standard input and print its exit-pin-hash= line"))
        add("version", G_OPTION_ARG_NONE, tr("Print the version and exit"))
        add("", G_OPTION_ARG_FILENAME_ARRAY, "", tr("[URL|FILE]"))
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

extension StaticString {
    /// The string's bytes as a C string pointer, valid for the life of the process.
    var cString: UnsafePointer<CChar> {
        UnsafeRawPointer(utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
