// Closes GTK's doors to other programs: links in labels and dialogs, and printing to a file.
import CWebKitGtk
import GLibBridge

/// GTK hands a URL to the desktop's default application (`gtk_show_uri_on_window`, then GIO or
/// the OpenURI portal) from the default handler of `activate-link` on every GtkLabel,
/// GtkLinkButton and GtkAboutDialog (the About window's licence link, the credits, any markup
/// link). At a kiosk or a family desk that is an unfiltered browser one click away, so the
/// default handlers are replaced process-wide by one that refuses and logs: no label link,
/// Porthole's or GTK's own, ever leaves the process. And GTK's print dialog offers "Print to
/// File" (a file chooser writing anywhere) from its `file` print backend: only CUPS printers are
/// loaded.
@MainActor
public enum ExternalHandoff {
    private static var closed = false

    /// Replaces the handlers and the print backends; once per process (before any dialog).
    public static func close() {
        guard !closed else { return }
        closed = true
        for type in [gtk_label_get_type(), gtk_link_button_get_type(), gtk_about_dialog_get_type()] {
            // The signal is registered in class_init: make sure the class exists (kept for the process).
            _ = g_type_class_ref(type)
            g_signal_override_class_handler("activate-link", type, unsafeBitCast(refuseLink, to: GCallback.self))
        }
        if let settings = gtk_settings_get_default() {
            var value = GValue()
            g_value_init(&value, GType(16 << 2))  // G_TYPE_STRING, a macro Swift cannot see
            defer { g_value_unset(&value) }
            g_value_set_string(&value, "cups")
            g_object_set_property(UnsafeMutableRawPointer(settings).assumingMemoryBound(to: GObject.self), "gtk-print-backends", &value)
        }
    }
}

/// `gboolean (*activate_link) (GtkLabel|GtkLinkButton|GtkAboutDialog *self, const gchar *uri, gpointer)`:
/// handled (TRUE), so GTK shows nothing and launches nothing.
private let refuseLink: @convention(c) (gpointer?, UnsafePointer<gchar>?, gpointer?) -> gboolean = { _, uri, _ in
    let link = uri.map { String(cString: $0) } ?? ""
    Log.write(.message, "link not handed to another program: \(link)",
              fields: ["PORTHOLE_EVENT": "link-refused", "PORTHOLE_URL": link])
    return 1
}
