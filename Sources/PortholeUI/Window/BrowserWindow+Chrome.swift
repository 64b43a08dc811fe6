// The window's chrome: the desk's header bar, the bottom bar, and the kiosk's finger-sized buttons in it.
import CWebKitGtk
import GLibBridge
import PortholeCore

@MainActor
extension BrowserWindow {
    func buildChrome(_ window: UnsafeMutablePointer<GtkWidget>) {
        SteadyIcons.install()
        gtk_window_set_default_size(window.cast(), 1024, 700)
        gtk_window_set_icon_name(window.cast(), "dev.porthole.Porthole")
        gtk_header_bar_set_show_close_button(header.cast(), 1)
        gtk_header_bar_set_custom_title(header.cast(), titleLines.box)
        gtk_window_set_titlebar(window.cast(), header)

        let navigation = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_style_context_add_class(gtk_widget_get_style_context(navigation), "linked")
        let back = iconButton("go-previous-symbolic", name: tr("Back"), tooltip: tr("Back (Alt+Left)"), action: "win.back")
        let forward = iconButton("go-next-symbolic", name: tr("Forward"), tooltip: tr("Forward (Alt+Right)"), action: "win.forward")
        gtk_container_add(navigation.cast(), back)
        gtk_container_add(navigation.cast(), forward)
        gtk_header_bar_pack_start(header.cast(), navigation)

        let openContent = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
        gtk_container_add(openContent.cast(), gtk_label_new(trc("header bar button", "Open")))
        gtk_container_add(openContent.cast(), gtk_image_new_from_icon_name("pan-down-symbolic", GTK_ICON_SIZE_BUTTON))
        if let old = gtk_bin_get_child(openButton.cast()) { gtk_container_remove(openButton.cast(), old) }
        gtk_container_add(openButton.cast(), openContent)
        gtk_widget_set_tooltip_text(openButton, tr("Open an approved site"))
        gtk_menu_button_set_menu_model(openButton.cast(), siteMenu.typed())
        Accessibility.setName(openButton, tr("Open"))
        if let popover = gtk_menu_button_get_popover(openButton.cast()) {
            connections.connect(UnsafeMutableRawPointer(popover), "closed", .plain { [unowned self] in self.send(.menuClosed) })
        }
        gtk_button_set_image(menuButton.cast(), gtk_image_new_from_icon_name("open-menu-symbolic", GTK_ICON_SIZE_BUTTON))
        gtk_widget_set_tooltip_text(menuButton, tr("Main menu"))
        Accessibility.setName(menuButton, tr("Main menu"))
        gtk_menu_button_set_menu_model(menuButton.cast(), primaryMenu.model.typed())
        if let popover = gtk_menu_button_get_popover(menuButton.cast()) {
            connections.connect(UnsafeMutableRawPointer(popover), "closed", .plain { [unowned self] in self.send(.menuClosed) })
        }
        gtk_header_bar_pack_end(header.cast(), menuButton)
        gtk_header_bar_pack_end(header.cast(), openButton)
        if options.kiosk != nil {
            // Kiosk mode: no title bar at all, so nothing to close, move or un-fullscreen.
            gtk_widget_set_no_show_all(header, 1)
            gtk_window_set_decorated(window.cast(), 0)
        }
    }

    func makeBottomBar() -> UnsafeMutablePointer<GtkWidget> {
        let bar = bottomBar
        if let kiosk = options.kiosk {
            // The header bar is gone: Back, Home and the site chooser move down here, sized for fingers.
            for button in [iconButton("go-previous-symbolic", name: tr("Back"), action: "win.back", size: GTK_ICON_SIZE_LARGE_TOOLBAR),
                           iconButton("go-home-symbolic", name: tr("Home"), action: "win.home", size: GTK_ICON_SIZE_LARGE_TOOLBAR),
                           makeKioskSitesButton()] {
                gtk_widget_set_size_request(button, Self.touchSize, Self.touchSize)
                gtk_action_bar_pack_start(bar.cast(), button)
            }
            // Packed by kiosk mode, first among the visitor controls (VisitorControlsBar.speechSlot).
            _ = makeSpeechButton()
            if !kiosk.toolbar { gtk_widget_set_no_show_all(bar, 1) }
        }
        // Only while a page loads (render shows it), across the bar's free width: an empty trough
        // at rest looks like a dead slider. A stack's page, not shown and hidden: a stack of pages
        // of one size switches without asking the window for a new layout, where hiding the bar
        // lays out the whole window at both ends of every load (1–2 million instructions a link
        // in the UI process, measured over a 200-link chain).
        gtk_widget_set_hexpand(progressSlot, 1)
        gtk_widget_set_valign(progressBar, GTK_ALIGN_CENTER)
        let rest = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        Self.addPages([(progressBar, Self.progressPage), (rest, Self.restPage)], to: progressSlot)
        gtk_action_bar_pack_start(bar.cast(), progressSlot)
        // Reload and Stop, each drawn once: a stack of the two icons switches between them at both
        // ends of every load, where setting the image's icon each time looked it up, drew it again
        // and laid out the bar (0.7–1.7 ms of the UI's CPU a link at the median over a 200-link
        // chain; docs/performance-choices.md).
        Self.addPages([(gtk_image_new_from_icon_name("view-refresh-symbolic", GTK_ICON_SIZE_BUTTON)!, Self.reloadIcon),
                       (gtk_image_new_from_icon_name("process-stop-symbolic", GTK_ICON_SIZE_BUTTON)!, Self.stopIcon)],
                      to: refreshIcons)
        gtk_button_set_image(refreshButton.cast(), refreshIcons)  // which icon, action and names: updateActions
        gtk_action_bar_pack_end(bar.cast(), refreshButton)
        return bar
    }

    /// Adds each widget to `stack` as the page of that name, shown: a stack shows only a visible page.
    private static func addPages(_ pages: [(UnsafeMutablePointer<GtkWidget>, String)], to stack: UnsafeMutablePointer<GtkWidget>) {
        for (page, name) in pages {
            gtk_widget_show(page)
            gtk_stack_add_named(stack.cast(), page, name)
        }
    }

    /// The progress slot's pages: the bar while a page loads, nothing at rest.
    static let progressPage = "progress", restPage = "rest"
    /// The refresh button's two icons, by the stack page each is.
    static let reloadIcon = "reload", stopIcon = "stop"

    /// The smallest side of a control meant for a finger, in pixels (GNOME's touch target).
    static let touchSize: Int32 = 48

    /// The kiosk's site chooser: the Open menu's sites, for a window without a header bar.
    /// Shown as `[Kiosk] site-menu=` says (rebuildSiteMenu keeps it in step with the sites).
    func makeKioskSitesButton() -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_menu_button_new()!
        let content = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_container_add(content.cast(), gtk_image_new_from_icon_name("view-list-symbolic", GTK_ICON_SIZE_LARGE_TOOLBAR))
        gtk_container_add(content.cast(), gtk_label_new(tr("Sites")))
        if let old = gtk_bin_get_child(button.cast()) { gtk_container_remove(button.cast(), old) }
        gtk_container_add(button.cast(), content)
        gtk_widget_show_all(content)  // the button itself is shown by rebuildSiteMenu
        gtk_widget_set_tooltip_text(button, tr("Choose a site"))
        Accessibility.setName(button, tr("Sites"))
        gtk_widget_set_focus_on_click(button, 0)
        gtk_menu_button_set_direction(button.cast(), GTK_ARROW_UP)
        gtk_menu_button_set_menu_model(button.cast(), siteMenu.typed())
        if let popover = gtk_menu_button_get_popover(button.cast()) {
            let widget = UnsafeMutablePointer<GtkWidget>(OpaquePointer(popover))
            TouchStyle.install()
            gtk_style_context_add_class(gtk_widget_get_style_context(widget), TouchStyle.menuClass)
            connections.connect(UnsafeMutableRawPointer(popover), "closed", .plain { [unowned self] in self.send(.menuClosed) })
        }
        gtk_widget_set_no_show_all(button, 1)  // shown by rebuildSiteMenu when there is a choice
        sitesButton = button
        return button
    }

    /// A button showing only an icon: `name` is what screen readers say, `tooltip` adds the shortcut.
    private func iconButton(_ icon: String, name: String, tooltip: String? = nil, action: String,
                            size: GtkIconSize = GTK_ICON_SIZE_BUTTON) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_button_new_from_icon_name(icon, size)!
        gtk_widget_set_tooltip_text(button, tooltip ?? name)
        Accessibility.setName(button, name)
        // A click leaves the keyboard focus where it was (on the page), so keys keep scrolling it.
        gtk_widget_set_focus_on_click(button, 0)
        gtk_actionable_set_action_name(OpaquePointer(button), action)
        return button
    }
}

/// Finger-sized menu items for the kiosk's menus. A provider on one widget does not reach its
/// children in GTK 3, so this one is on the screen, matching only menus with its class.
@MainActor
enum TouchStyle {
    static let menuClass = "porthole-touch-menu"
    private static var provider: ObjectOwner?

    static func install() {
        guard provider == nil else { return }
        provider = screenStyle("popover.\(menuClass) modelbutton { min-height: 44px; padding: 4px 20px; font-size: 1.2em; }")
    }
}

/// `css` for every window on the default screen, over the theme; kept for the life of the
/// process, as the screen keeps it (nil without a screen).
@MainActor
func screenStyle(_ css: String) -> ObjectOwner? {
    guard let screen = gdk_screen_get_default() else { return nil }
    let provider = ObjectOwner(adopting: UnsafeMutableRawPointer(gtk_css_provider_new()))
    gtk_css_provider_load_from_data(provider.typed(), css, -1, nil)
    gtk_style_context_add_provider_for_screen(screen, OpaquePointer(provider.pointer), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    return provider
}

/// Buttons change colour at once instead of through GTK's 200 ms colour transition. GTK 3 keeps
/// every colour a symbolic icon was ever drawn in, for as long as the icon is shown: each frame
/// of a transition (Back turning insensitive at a visitor reset, sensitive after a link) left a
/// new 24-pixel copy of the icon behind, about 8 a kiosk session, until the transition's possible
/// in-between colours were used up (heaptrack: 1,650 live `gdk_pixbuf_new` blocks, 3.8 MB, after
/// 200 sessions with navigation; none with animations off).
@MainActor
enum SteadyIcons {
    private static var provider: ObjectOwner?

    static func install() {
        guard provider == nil else { return }
        provider = screenStyle("button, modelbutton { transition: none; }")
    }
}
