// The gettext seam: every user-visible string goes through these, in the "porthole" text domain.
import CGLib

/// Porthole's gettext text domain (po/porthole.pot, PREFIX/share/locale/LANG/LC_MESSAGES/porthole.mo).
public let translationDomain = "porthole"

/// `message` in the visitor's language (`g_dgettext`). Write the English text as a string literal
/// in the call so that `make pot` can extract it; use `%@`-free placeholders such as `{host}` and
/// substitute after translating, never interpolation inside the literal.
public func tr(_ message: String) -> String {
    // gettext returns its argument when there is no translation: that pointer is only valid
    // inside withCString, so the untranslated text is the Swift string itself.
    message.withCString { original in
        guard let translated = g_dgettext(translationDomain, original), translated != original else { return message }
        return String(cString: translated)
    }
}

/// The singular or plural form for `count` in the visitor's language (`g_dngettext`), so that
/// languages with several plural forms (Russian has three) read correctly.
public func trn(_ singular: String, _ plural: String, _ count: Int) -> String {
    singular.withCString { one in
        plural.withCString { many in
            guard let translated = g_dngettext(translationDomain, one, many, gulong(max(0, count))) else { return count == 1 ? singular : plural }
            if translated == one { return singular }
            if translated == many { return plural }
            return String(cString: translated)
        }
    }
}

/// `message` in a context that tells apart two uses of the same English text (`g_dpgettext2`).
public func trc(_ context: String, _ message: String) -> String {
    message.withCString { original in
        guard let translated = g_dpgettext2(translationDomain, context, original), translated != original else { return message }
        return String(cString: translated)
    }
}
