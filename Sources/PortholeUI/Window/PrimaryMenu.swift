// The header bar's primary menu (☰): zoom, find, print, keyboard shortcuts and About Porthole,
// with the shortcuts window and the About window it opens.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// The menu model behind the ☰ button. Its zoom row shows the current level between − and +.
@MainActor
final class PrimaryMenu {
    let model: ObjectOwner
    private let zoomSection: ObjectOwner

    init() {
        model = ObjectOwner(adopting: UnsafeMutableRawPointer(g_menu_new()))
        zoomSection = ObjectOwner(adopting: UnsafeMutableRawPointer(g_menu_new()))
        let menu = model.opaque!
        let zoomItem = g_menu_item_new_section(tr("Zoom"), zoomSection.typed())!
        // GTK draws a section with this hint as one row of buttons, as GNOME Web's menu does.
        g_menu_item_set_attribute_value(zoomItem, "display-hint", g_variant_new_string("horizontal-buttons"))
        g_menu_append_item(menu, zoomItem)
        g_object_unref(UnsafeMutableRawPointer(zoomItem))
        setZoom(1.0)

        Self.appendSection(to: menu, [(tr("Find…"), "win.find"), (tr("Print…"), "win.print")])
        Self.appendSection(to: menu, [(tr("Keyboard Shortcuts"), "win.shortcuts"), (tr("About Porthole"), "win.about")])
    }

    /// Shows `level` in the zoom row (the middle button resets it).
    func setZoom(_ level: Double) {
        let section = zoomSection.opaque
        g_menu_remove_all(section)
        for (label, action, icon) in [(tr("Zoom out"), "win.zoom-out", "zoom-out-symbolic"),
                                      (ZoomLevels.percentage(level), "win.zoom-reset", nil),
                                      (tr("Zoom in"), "win.zoom-in", "zoom-in-symbolic")] {
            let item = g_menu_item_new(label, action)!
            // In a row of buttons GTK shows the verb icon in place of the label (kept for screen readers).
            if let icon { g_menu_item_set_attribute_value(item, "verb-icon", g_variant_new_string(icon)) }
            g_menu_append_item(section, item)
            g_object_unref(UnsafeMutableRawPointer(item))
        }
    }

    func release() {
        zoomSection.release()
        model.release()
    }

    private static func appendSection(to menu: OpaquePointer, _ items: [(String, String)]) {
        let section = g_menu_new()!
        for (label, action) in items { g_menu_append(section, label, action) }
        g_menu_append_section(menu, nil, UnsafeMutablePointer(section))
        g_object_unref(UnsafeMutableRawPointer(section))
    }
}

/// The Keyboard Shortcuts window: every shortcut of the window's accelerator table, by group.
@MainActor
enum ShortcutsWindow {
    /// What each action is called in the window, grouped as the user thinks of them.
    static func groups() -> [(title: String, shortcuts: [(title: String, action: String)])] {
        [
            (tr("Navigation"), [(tr("Back"), "win.back"), (tr("Forward"), "win.forward"), (tr("Reload"), "win.reload"),
                                (tr("Stop loading"), "win.stop"), (tr("Home page"), "win.home")]),
            (tr("Zoom"), [(tr("Zoom in"), "win.zoom-in"), (tr("Zoom out"), "win.zoom-out"), (tr("Actual size"), "win.zoom-reset")]),
            (tr("Find"), [(tr("Find in page"), "win.find"), (tr("Next match"), "win.find-next"),
                          (tr("Previous match"), "win.find-previous")]),
            (tr("Window"), [(tr("Print"), "win.print"), (tr("Keyboard shortcuts"), "win.shortcuts"), (tr("Quit"), "app.quit")]),
        ]
    }

    /// The keys shown for `action`: its keyboard accelerators, each key once (see `ShortcutKeys`).
    static func keys(for action: String) -> [String] {
        ShortcutKeys.shown(BrowserWindow.accelerators.first { $0.action == action }?.keys ?? [])
    }

    /// What the mouse does beside the keys (the window handles these itself, not as accelerators):
    /// the action's name and how the mouse does it.
    static func mouse() -> (title: String, shortcuts: [(title: String, how: String)]) {
        (tr("Mouse"), [(tr("Back"), tr("Mouse button 8 (the rear side button)")),
                       (tr("Forward"), tr("Mouse button 9 (the front side button)")),
                       (tr("Zoom in or out"), tr("Ctrl + mouse wheel"))])
    }

    /// Builds and shows the window over `parent`. GTK owns it from then on (a toplevel), and it
    /// goes with its parent.
    @discardableResult
    static func present(over parent: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        var xml = "<interface><object class=\"GtkShortcutsWindow\" id=\"shortcuts\"><property name=\"modal\">1</property>"
        xml += "<child><object class=\"GtkShortcutsSection\"><property name=\"visible\">1</property>"
        xml += "<property name=\"section-name\">browser</property>"
        for group in groups() {
            xml += "<child><object class=\"GtkShortcutsGroup\"><property name=\"visible\">1</property>"
            xml += "<property name=\"title\">\(escape(group.title))</property>"
            for shortcut in group.shortcuts {
                xml += "<child><object class=\"GtkShortcutsShortcut\"><property name=\"visible\">1</property>"
                xml += "<property name=\"title\">\(escape(shortcut.title))</property>"
                xml += "<property name=\"accelerator\">\(escape(keys(for: shortcut.action).joined(separator: " ")))</property>"
                xml += "</object></child>"
            }
            xml += "</object></child>"
        }
        let mouse = mouse()
        xml += "<child><object class=\"GtkShortcutsGroup\"><property name=\"visible\">1</property>"
        xml += "<property name=\"title\">\(escape(mouse.title))</property>"
        for shortcut in mouse.shortcuts {
            xml += "<child><object class=\"GtkShortcutsShortcut\"><property name=\"visible\">1</property>"
            xml += "<property name=\"shortcut-type\">gesture</property><property name=\"icon\">mouse-icon</property>"
            xml += "<property name=\"title\">\(escape(shortcut.title))</property>"
            xml += "<property name=\"subtitle\">\(escape(shortcut.how))</property>"
            xml += "</object></child>"
        }
        xml += "</object></child>"
        xml += "</object></child></object>"
        xml += "<object class=\"GThemedIcon\" id=\"mouse-icon\"><property name=\"name\">input-mouse-symbolic</property></object></interface>"
        guard let builder = gtk_builder_new_from_string(xml, -1) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        guard let object = gtk_builder_get_object(builder, "shortcuts") else { return nil }
        let window = UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWidget.self)
        gtk_window_set_transient_for(window.cast(), parent.cast())
        gtk_window_set_destroy_with_parent(window.cast(), 1)
        gtk_widget_show_all(window)
        return window
    }

    private static func escape(_ text: String) -> String {
        guard let escaped = g_markup_escape_text(text, -1) else { return "" }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }
}

/// The About Porthole window: version, WebKitGTK version, licence.
@MainActor
enum AboutWindow {
    @discardableResult
    static func present(over parent: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        guard let dialog = gtk_about_dialog_new() else { return nil }
        let about = UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: GtkAboutDialog.self)
        gtk_about_dialog_set_program_name(about, AboutPorthole.name)
        gtk_about_dialog_set_version(about, AboutPorthole.version)
        setLogo(about)
        gtk_about_dialog_set_comments(about, tr("A web browser that opens only the sites it was set up for.") + "\n\n" + webKitVersion)
        if AboutPorthole.licence == "GPL-3.0-or-later" {
            // The licence itself, inside the dialog; GTK's short text links to gnu.org instead,
            // and that link (like every label link) is refused by ExternalHandoff.
            if let text = try? String(contentsOfFile: gplText, encoding: .utf8) {
                gtk_about_dialog_set_license(about, text)
            } else {
                gtk_about_dialog_set_license_type(about, GTK_LICENSE_GPL_3_0)
            }
        } else {
            gtk_about_dialog_set_license(about, AboutPorthole.licence)
        }
        gtk_window_set_transient_for(dialog.cast(), parent.cast())
        gtk_window_set_modal(dialog.cast(), 1)
        gtk_window_set_destroy_with_parent(dialog.cast(), 1)
        // The connection lives as long as the dialog, which the handler destroys.
        connectSignal(UnsafeMutableRawPointer(dialog), "response", .enumValue { _ in gtk_widget_destroy(dialog) })
        gtk_widget_show_all(dialog)
        return dialog
    }

    /// Debian's copy of the GNU GPL version 3 (base-files).
    static let gplText = "/usr/share/common-licenses/GPL-3"

    /// The icon from the theme where Porthole is installed; run from the build tree (no icon
    /// installed), the SVG in the source tree's Resources, so the dialog never shows a broken image.
    private static func setLogo(_ about: UnsafeMutablePointer<GtkAboutDialog>) {
        let name = "dev.porthole.Porthole"
        if let theme = gtk_icon_theme_get_default(), gtk_icon_theme_has_icon(theme, name) != 0 {
            return gtk_about_dialog_set_logo_icon_name(about, name)
        }
        if let file = AboutPorthole.logoFile(), let logo = gdk_pixbuf_new_from_file_at_size(file, 128, 128, nil) {
            gtk_about_dialog_set_logo(about, logo)
            g_object_unref(UnsafeMutableRawPointer(logo))
            return
        }
        gtk_about_dialog_set_logo_icon_name(about, "web-browser")
    }

    /// "WebKitGTK 2.48.1": the engine the pages are shown with.
    static var webKitVersion: String {
        "WebKitGTK \(webkit_get_major_version()).\(webkit_get_minor_version()).\(webkit_get_micro_version())"
    }
}
