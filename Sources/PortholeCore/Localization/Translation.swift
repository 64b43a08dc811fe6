// The gettext seam: every user-visible string goes through these, in the "porthole" text domain.
import CGLib

/// Porthole's gettext text domain (po/porthole.pot, PREFIX/share/locale/LANG/LC_MESSAGES/porthole.mo).
public let translationDomain = "porthole"

/// `message` in the visitor's language (`g_dgettext`). Write the English text as a string literal
/// in the call so that `make pot` can extract it; use `%@`-free placeholders such as `{host}` and
/// substitute after translating, never interpolation inside the literal.
public func tr(_ message: String) -> String {
    // Without a translation gettext returns the pointer it was given: read it while it is valid.
    message.withCString { String(cString: g_dgettext(translationDomain, $0)) }
}

/// The singular or plural form for `count` in the visitor's language (`g_dngettext`), so that
/// languages with several plural forms (Russian has three) read correctly.
public func trn(_ singular: String, _ plural: String, _ count: Int) -> String {
    singular.withCString { one in
        plural.withCString { many in String(cString: g_dngettext(translationDomain, one, many, gulong(max(0, count)))) }
    }
}

/// `message` in a context that tells apart two uses of the same English text (`g_dpgettext2`).
public func trc(_ context: String, _ message: String) -> String {
    context.withCString { context in message.withCString { String(cString: g_dpgettext2(translationDomain, context, $0)) } }
}
