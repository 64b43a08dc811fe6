// The site menus: the desk's Open menu, the kiosk's Sites menu, the search menu for long lists.
import CWebKitGtk
import GLibBridge
import PortholeCore

@MainActor
extension BrowserWindow {
    /// The button the site menu hangs from: the header bar's Open at a desk, the bottom bar's
    /// Sites in kiosk mode (which has no header bar).
    var siteMenuButton: UnsafeMutablePointer<GtkWidget> { sitesButton ?? openButton }

    func rebuildSiteMenu() {
        let menu = siteMenu.opaque
        let button = siteMenuButton
        g_menu_remove_all(menu)
        if let sitesButton, let kiosk = options.kiosk { gtk_widget_set_visible(sitesButton, kiosk.siteMenu.shows(for: options.sites) ? 1 : 0) }
        if options.sites.sites.count >= SiteSearch.searchableFrom {
            if siteSearchMenu == nil {
                let search = SiteSearchMenu(button: button, touch: options.kiosk != nil)
                connections.connect(search.popoverObject, "closed", .plain { [unowned self] in self.send(.menuClosed) })
                siteSearchMenu = search
            }
            siteSearchMenu?.show(options.sites.sites)
            gtk_widget_set_sensitive(button, 1)
            return
        }
        if let search = siteSearchMenu {
            siteSearchMenu = nil
            gtk_menu_button_set_popover(button.cast(), nil)
            search.release()
            gtk_menu_button_set_menu_model(button.cast(), siteMenu.typed())
            if let popover = gtk_menu_button_get_popover(button.cast()) {
                if options.kiosk != nil { gtk_style_context_add_class(gtk_widget_get_style_context(UnsafeMutablePointer<GtkWidget>(OpaquePointer(popover))), TouchStyle.menuClass) }
                connections.connect(UnsafeMutableRawPointer(popover), "closed", .plain { [unowned self] in self.send(.menuClosed) })
            }
        }
        for site in options.sites.sites {
            let item = g_menu_item_new(site.name, nil)
            g_menu_item_set_action_and_target_value(item, "win.open-site", g_variant_new_string(site.name))
            g_menu_append_item(menu, item)
            g_object_unref(UnsafeMutableRawPointer(item))
        }
        gtk_widget_set_sensitive(openButton, options.sites.isEmpty ? 0 : 1)
    }
}
