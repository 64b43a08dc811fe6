// The Open menu for long site lists: a search field and at most a screenful of matching sites,
// so that 100,000 sites cost a dozen buttons, not 100,000 menu items, at start-up and on reload.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// A popover for a GtkMenuButton. Its items are GtkModelButtons with the same action as the
/// plain menu's (`win.open-site` with the site's name), so choosing one works the same way.
@MainActor
final class SiteSearchMenu {
    private let popover: ObjectOwner
    private let entry: UnsafeMutablePointer<GtkWidget>
    private let rows: UnsafeMutablePointer<GtkWidget>
    private let more: UnsafeMutablePointer<GtkWidget>
    private let connections = SignalConnections()
    private var sites: [Site] = []

    /// Becomes `button`'s popover (replacing any menu model); `touch`: with finger-sized rows
    /// (the kiosk's Sites button).
    init(button: UnsafeMutablePointer<GtkWidget>, touch: Bool = false) {
        let popover = gtk_popover_new(button)!
        self.popover = ObjectOwner(sinking: UnsafeMutableRawPointer(popover))
        if touch {
            TouchStyle.install()
            gtk_style_context_add_class(gtk_widget_get_style_context(popover), TouchStyle.menuClass)
        }
        entry = gtk_search_entry_new()
        gtk_entry_set_placeholder_text(entry.cast(), tr("Search sites"))
        gtk_entry_set_width_chars(entry.cast(), 28)
        rows = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        more = gtk_label_new(nil)
        gtk_style_context_add_class(gtk_widget_get_style_context(more), "dim-label")
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        gtk_container_set_border_width(box.cast(), 8)
        gtk_box_pack_start(box.cast(), entry, 0, 0, 0)
        gtk_box_pack_start(box.cast(), rows, 0, 0, 0)
        gtk_box_pack_start(box.cast(), more, 0, 0, 0)
        gtk_widget_show_all(box)
        gtk_container_add(popover.cast(), box)
        connections.connect(UnsafeMutableRawPointer(entry), "search-changed", .plain { [unowned self] in self.render() })
        // Enter opens the first match, as in a launcher.
        connections.connect(UnsafeMutableRawPointer(entry), "activate", .plain { [unowned self] in
            guard let first = gtk_container_get_children(self.rows.cast()) else { return }
            defer { g_list_free(first) }
            if let button = first.pointee.data { gtk_widget_activate(button.assumingMemoryBound(to: GtkWidget.self)) }
        })
        gtk_menu_button_set_popover(button.cast(), popover)
    }

    /// The popover, for its owner's `closed` handler.
    var popoverObject: UnsafeMutableRawPointer { popover.pointer! }

    /// Shows `sites` from now on; only the matches on screen become widgets.
    func show(_ sites: [Site]) {
        self.sites = sites
        render()
    }

    /// Drops the popover; the owner calls it before the button goes or a plain menu takes over.
    func release() {
        connections.disconnectAll()
        popover.release()
    }

    private var query: String { gtk_entry_get_text(entry.cast()).map { String(cString: $0) } ?? "" }

    private func render() {
        let query = self.query
        let (shown, total) = SiteSearch.matches(sites, query: query)
        if let children = gtk_container_get_children(rows.cast()) {
            var node: UnsafeMutablePointer<GList>? = children
            while let current = node {
                if let child = current.pointee.data { gtk_widget_destroy(child.assumingMemoryBound(to: GtkWidget.self)) }
                node = current.pointee.next
            }
            g_list_free(children)
        }
        for site in shown {
            let button = gtk_model_button_new()!
            Self.setString(UnsafeMutableRawPointer(button), "text", site.name)
            gtk_actionable_set_action_name(OpaquePointer(button), "win.open-site")
            gtk_actionable_set_action_target_value(OpaquePointer(button), g_variant_new_string(site.name))
            gtk_widget_show(button)
            gtk_box_pack_start(rows.cast(), button, 0, 0, 0)
        }
        let note = SiteSearch.note(shown: shown.count, total: total)
        gtk_label_set_text(more.cast(), note ?? "")
        gtk_widget_set_visible(more, note == nil ? 0 : 1)
    }

    private static func setString(_ object: UnsafeMutableRawPointer, _ name: String, _ text: String) {
        var value = GValue()
        g_value_init(&value, GType(16 << 2))  // G_TYPE_STRING, a macro Swift cannot see
        defer { g_value_unset(&value) }
        g_value_set_string(&value, text)
        g_object_set_property(object.assumingMemoryBound(to: GObject.self), name, &value)
    }
}
