// Find in page: a search bar above the page over WebKit's find controller, with the match count.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Ctrl+F opens it with the entry focused; typing searches as you type (case-insensitive,
/// wrapping); Enter and Ctrl+G go to the next match, Shift+Enter and Ctrl+Shift+G to the one
/// before; Escape closes it and gives the page back its focus.
@MainActor
final class FindBar {
    let bar: UnsafeMutablePointer<GtkWidget>
    private let entry: UnsafeMutablePointer<GtkWidget>
    private let countLabel: UnsafeMutablePointer<GtkWidget>
    /// The page's find controller, for the current web view (a new visitor session has a new one).
    private var controller: UnsafeMutablePointer<WebKitFindController>?
    private let viewConnections = SignalConnections()
    /// Called when the bar closes (the window gives the page the focus).
    var onClose: @MainActor () -> Void = {}

    /// The number of matches of the last count, nil before one.
    private(set) var matchCount: Int?

    private static let options = WEBKIT_FIND_OPTIONS_CASE_INSENSITIVE.rawValue | WEBKIT_FIND_OPTIONS_WRAP_AROUND.rawValue
    private static let maxMatches: guint = 1000

    init(connections: SignalConnections) {
        bar = gtk_search_bar_new()
        entry = gtk_search_entry_new()
        gtk_entry_set_width_chars(entry.cast(), 30)
        gtk_entry_set_placeholder_text(entry.cast(), tr("Find in page"))
        Accessibility.setName(entry, tr("Find in page"))
        countLabel = gtk_label_new("")
        gtk_style_context_add_class(gtk_widget_get_style_context(countLabel), "dim-label")
        let previous = gtk_button_new_from_icon_name("go-up-symbolic", GTK_ICON_SIZE_BUTTON)!
        gtk_widget_set_tooltip_text(previous, tr("Previous match (Shift+Enter)"))
        Accessibility.setName(previous, tr("Previous match"))
        let next = gtk_button_new_from_icon_name("go-down-symbolic", GTK_ICON_SIZE_BUTTON)!
        gtk_widget_set_tooltip_text(next, tr("Next match (Enter)"))
        Accessibility.setName(next, tr("Next match"))
        let arrows = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_style_context_add_class(gtk_widget_get_style_context(arrows), "linked")
        gtk_container_add(arrows.cast(), entry)
        gtk_container_add(arrows.cast(), previous)
        gtk_container_add(arrows.cast(), next)
        let content = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_container_add(content.cast(), arrows)
        gtk_container_add(content.cast(), countLabel)
        // Its own close button rather than the search bar's, which has no accessible name.
        let close = gtk_button_new_from_icon_name("window-close-symbolic", GTK_ICON_SIZE_BUTTON)!
        gtk_button_set_relief(close.cast(), GTK_RELIEF_NONE)
        gtk_widget_set_tooltip_text(close, tr("Close (Escape)"))
        Accessibility.setName(close, tr("Close the find bar"))
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_box_set_center_widget(row.cast(), content)
        gtk_box_pack_end(row.cast(), close, 0, 0, 0)
        gtk_widget_set_hexpand(row, 1)
        gtk_container_add(bar.cast(), row)
        gtk_search_bar_connect_entry(bar.cast(), entry.cast())
        connections.connect(UnsafeMutableRawPointer(close), "clicked", .plain { [unowned self] in self.close() })

        let entryObject = UnsafeMutableRawPointer(entry)
        connections.connect(entryObject, "search-changed", .plain { [unowned self] in self.search() })
        connections.connect(entryObject, "activate", .plain { [unowned self] in self.next() })
        connections.connect(entryObject, "next-match", .plain { [unowned self] in self.next() })
        connections.connect(entryObject, "previous-match", .plain { [unowned self] in self.previous() })
        connections.connect(entryObject, "key-press-event", .pointerReturningBool { [unowned self] event in
            // Shift+Enter: the match before (GtkEntry's activate does not tell Shift apart).
            guard let key = event?.assumingMemoryBound(to: GdkEventKey.self).pointee,
                  key.keyval == guint(GDK_KEY_Return) || key.keyval == guint(GDK_KEY_KP_Enter),
                  key.state & GDK_SHIFT_MASK.rawValue != 0 else { return false }
            self.previous()
            return true
        })
        connections.connect(UnsafeMutableRawPointer(previous), "clicked", .plain { [unowned self] in self.previous() })
        connections.connect(UnsafeMutableRawPointer(next), "clicked", .plain { [unowned self] in self.next() })
        connections.connect(UnsafeMutableRawPointer(bar), "notify::search-mode-enabled", .pointer { [unowned self] _ in
            if !self.isOpen { self.closed() }
        })
    }

    var isOpen: Bool { gtk_search_bar_get_search_mode(bar.cast()) != 0 }
    var text: String { gtk_entry_get_text(entry.cast()).map { String(cString: $0) } ?? "" }
    var searchEntry: UnsafeMutablePointer<GtkWidget> { entry }

    /// Follows the window's current web view.
    func attach(_ view: UnsafeMutablePointer<WebKitWebView>?) {
        viewConnections.disconnectAll()
        controller = view.flatMap { webkit_web_view_get_find_controller($0) }
        guard let controller else { return }
        let object = UnsafeMutableRawPointer(controller)
        viewConnections.connect(object, "counted-matches", .enumValue { [unowned self] count in self.counted(Int(count)) })
        viewConnections.connect(object, "failed-to-find-text", .plain { [unowned self] in self.counted(0) })
    }

    /// Opens the bar with the entry focused and its text selected (Ctrl+F again re-selects it).
    func open() {
        gtk_search_bar_set_search_mode(bar.cast(), 1)
        // Realized now, so the release of the key that opened the bar finds it ready.
        gtk_widget_realize(entry)
        gtk_widget_grab_focus(entry)
        if !text.isEmpty { search() }
    }

    func close() { gtk_search_bar_set_search_mode(bar.cast(), 0) }

    func next() {
        guard let controller, !text.isEmpty else { return open() }
        webkit_find_controller_search_next(controller)
    }

    func previous() {
        guard let controller, !text.isEmpty else { return open() }
        webkit_find_controller_search_previous(controller)
    }

    func release() { viewConnections.disconnectAll() }

    /// Lets go of the web view before it is dismantled: the bar closes while the view's find
    /// controller is alive (GtkSearchBar empties its entry, which ends the search), then forgets
    /// that controller, so no later keystroke or close reaches a finalized one.
    func detach() {
        close()
        attach(nil)
    }

    private func search() {
        guard let controller else { return }
        let text = self.text
        guard !text.isEmpty else {
            webkit_find_controller_search_finish(controller)
            matchCount = nil
            gtk_label_set_text(countLabel.cast(), "")
            return
        }
        webkit_find_controller_count_matches(controller, text, Self.options, Self.maxMatches)
        webkit_find_controller_search(controller, text, Self.options, Self.maxMatches)
    }

    private func counted(_ count: Int) {
        matchCount = count
        let words = count == 0 ? tr("No matches") : trn("{count} match", "{count} matches", count)
        gtk_label_set_text(countLabel.cast(), words.replacing("{count}", with: String(count)))
    }

    private func closed() {
        if let controller { webkit_find_controller_search_finish(controller) }
        onClose()
    }
}
