// The one place Core turns a GError from GLib (GUri, GKeyFile) into text.
import CGLib

/// A GError's message, freeing the error; "unknown error" when GLib gave none.
func takeErrorMessage(_ error: UnsafeMutablePointer<GError>?) -> String {
    guard let error else { return tr("unknown error") }
    defer { g_error_free(error) }
    return String(cString: error.pointee.message)
}
