// Where Porthole's message catalogs are, binding its text domain, and the visitor's languages.
import CGLib
import FoundationEssentials

public enum Localization {
    /// Binds the `porthole` text domain to `directory` (or to the catalogs found by
    /// `localeDirectory()`), in UTF-8, and makes it the default domain, as GNOME applications do
    /// at start. `setlocale(LC_ALL, "")` reads the environment; LANGUAGE (a GNU list such as
    /// `zh_TW:en`) then picks the catalog.
    public static func setUp(directory: String? = localeDirectory()) {
        setlocale(LC_ALL, "")
        if let language = getenv("LANGUAGE"), language.pointee != 0, isPlainC(LC_CTYPE), isPlainC(LC_MESSAGES) {
            // No locale at all but a language asked for: C.UTF-8, in the environment too,
            // because GTK sets the locale from it again when it starts.
            setenv("LC_ALL", "C.UTF-8", 1)
            setlocale(LC_ALL, "")
        }
        if let directory { bindtextdomain(translationDomain, directory) }
        bind_textdomain_codeset(translationDomain, "UTF-8")
        // g_dgettext decides once, at its first call, whether to translate at all: not when the
        // default domain is the app's own and has no catalog for the language of that moment
        // (so a window does not mix languages). In C.UTF-8 that would keep English for good,
        // before `[Browser] languages=` has been read; asking first, while the default domain
        // is still "messages", settles it as "translate".
        _ = g_dgettext(translationDomain, "")
        textdomain(translationDomain)
    }

    /// Uses `languages` (BCP 47 tags such as `zh-TW`, from `[Browser] languages=`) for the
    /// interface and for sites, in place of the environment's: LANGUAGE becomes `zh_TW:en`.
    /// Call before any window is built.
    public static func use(languages: [String]) {
        guard !languages.isEmpty else { return }
        setenv("LANGUAGE", languages.map { $0.replacing("-", with: "_") }.joined(separator: ":"), 1)
        leavePlainC()
        // glibc caches translations per language; a new textdomain() call makes it look again.
        textdomain(translationDomain)
    }

    /// In the plain "C" locale (no LANG at all, as in many containers) glibc ignores LANGUAGE and
    /// GLib prints only ASCII. When a language was asked for explicitly, messages and characters
    /// switch to C.UTF-8, which glibc always has: the same locale, in UTF-8.
    private static func leavePlainC() {
        for category in [LC_CTYPE, LC_MESSAGES] where isPlainC(category) {
            setlocale(category, "C.UTF-8")
        }
    }

    private static func isPlainC(_ category: Int32) -> Bool {
        guard let current = setlocale(category, nil) else { return true }
        return ["C", "POSIX"].contains(String(cString: current))
    }

    /// The compiled catalogs: `$PORTHOLE_LOCALE_DIR`; else `PREFIX/share/locale` beside an
    /// installed binary (`PREFIX/bin/porthole`) when it holds Porthole's catalogs; else the
    /// `locale` folder that `make` compiles into `.build/` of the checkout the binary was built in.
    public static func localeDirectory(environment: [String: String] = ProcessInfo.processInfo.environment,
                                       executable: String = DataDirectory.executablePath()) -> String? {
        DataDirectory.find(variable: "PORTHOLE_LOCALE_DIR", installed: "share/locale", inCheckout: "locale", holds: hasCatalogs,
                           environment: environment, executable: executable)
    }

    private static func hasCatalogs(_ dir: String) -> Bool {
        let languages = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return languages.contains {
            FileManager.default.fileExists(atPath: "\(dir)/\($0)/LC_MESSAGES/\(translationDomain).mo")
        }
    }

    /// The language Porthole's messages are shown in, as a BCP 47 tag (`zh-TW`, `ru`, `en`): the
    /// `Language:` of the catalog gettext picked, or English when it picked none.
    public static func activeLanguage() -> String {
        let header = String(cString: g_dgettext(translationDomain, ""))
        for line in header.split(separator: "\n") where line.hasPrefix("Language:") {
            let code = String(line.dropFirst("Language:".count)).trimmingWhitespace
            if let tag = tag(fromLocaleName: code) { return tag }
        }
        return "en"
    }

    /// True for languages written right to left (Arabic, Hebrew, Persian, Urdu, ...).
    public static func isRightToLeft(_ tag: String) -> Bool {
        let primary = tag.split(separator: "-").first.map { $0.lowercased() } ?? ""
        return ["ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "ps", "sd", "ug", "ur", "yi"].contains(primary)
    }

    /// The languages sites are asked for (Accept-Language, `navigator.languages`), most wanted
    /// first, as BCP 47 tags: `g_get_language_names()` without codesets, modifiers and "C". In
    /// the C locale (`LANG=C.UTF-8`, many containers and minimal kiosk images) that leaves none,
    /// and WebKit's own default would send `Accept-Language: C`, which no site understands:
    /// Porthole speaks English there, and asks sites for English.
    public static func preferredLanguages() -> [String] {
        var names: [String] = []
        if let list = g_get_language_names() {
            var index = 0
            while let name = list[index] {
                names.append(String(cString: name))
                index += 1
            }
        }
        return preferredLanguages(fromLocaleNames: names)
    }

    static func preferredLanguages(fromLocaleNames names: [String]) -> [String] {
        var tags: [String] = []
        for name in names {
            if let tag = tag(fromLocaleName: name), !tags.contains(tag) { tags.append(tag) }
        }
        return tags.isEmpty ? ["en"] : tags
    }

    /// `zh_TW.UTF-8@variant` as `zh-TW`; nil for "C" and "POSIX".
    static func tag(fromLocaleName name: String) -> String? {
        let base = name.prefix { $0 != "." && $0 != "@" }
        guard !base.isEmpty, base != "C", base != "POSIX" else { return nil }
        return String(base.replacing("_", with: "-"))
    }

    /// Why `tag` cannot be a `[Browser] languages=` entry, or nil: a language code of two or three
    /// letters, then optional subtags of letters and digits (`zh-TW`, `sr-Latn`, `es-419`).
    public static func languageTagProblem(_ tag: String) -> String? {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        let isLanguage = (2...3).contains(parts[0].count) && parts[0].allSatisfy { $0.isASCII && $0.isLetter }
        let subtagsOK = parts.dropFirst().allSatisfy { part in
            (2...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
        return isLanguage && subtagsOK
            ? nil
            : tr("\"{tag}\" is not a language tag, like zh-TW, ru or de").replacing("{tag}", with: tag)
    }
}

extension String {
    /// The translated text with its `{name}` placeholders replaced by `values[name]`.
    ///
    /// One pass over the template: a value is never searched for placeholders itself (a filter
    /// written `{reason}` stays as written), and 100,000 messages cost no more than their length
    /// (`replacing` per placeholder was half of loading 100,000 unreadable filters).
    public func filled(_ values: KeyValuePairs<String, String>) -> String {
        var out = ""
        var rest = Substring(self)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), let value = values.first(where: { $0.key == after[..<close] })?.value {
                out += value
                rest = after[after.index(after: close)...]
            } else {
                out += "{"
                rest = after
            }
        }
        return out + rest
    }
}
