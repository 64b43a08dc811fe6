// Types into the page as a hardware keyboard would: key press and release events for the web
// view, so the page sees keydown, keypress, input and keyup.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Delivers the keyboard's output to a web view as GdkEventKey events.
///
/// Synthesised key events go through WebKit's whole keyboard path (its input-method filter,
/// then the page's key events, default actions such as implicit form submission on Enter, and
/// editing), so a page cannot tell them from a hardware keyboard. The alternatives do less:
/// editing commands (`InsertText`) fire `input` but no key events and cannot press Enter, and a
/// WebKitInputMethodContext would need a GObject subclass written in C for composed text only.
/// Letters outside the keymap (Cyrillic on a US keymap) get their Unicode keyval
/// (`gdk_unicode_to_keyval`), which WebKit turns back into the character.
@MainActor
enum KeySender {
    static func send(_ output: KeyOutput, to view: UnsafeMutablePointer<WebKitWebView>) {
        let widget = UnsafeMutableRawPointer(view).assumingMemoryBound(to: GtkWidget.self)
        switch output {
        case .type(let text):
            for scalar in text.unicodeScalars {
                let isCapital = scalar.properties.isUppercase
                press(gdk_unicode_to_keyval(scalar.value), shift: isCapital, in: widget)
            }
        case .backspace: press(guint(GDK_KEY_BackSpace), in: widget)
        case .enter: press(guint(GDK_KEY_Return), in: widget)
        case .left: press(guint(GDK_KEY_Left), in: widget)
        case .right: press(guint(GDK_KEY_Right), in: widget)
        }
    }

    /// One press and release of `keyval`, from the seat's keyboard, with the hardware keycode
    /// of the keymap's key for it when there is one (WebKit's `code` and key-repeat logic read it).
    private static func press(_ keyval: guint, shift: Bool = false, in widget: UnsafeMutablePointer<GtkWidget>) {
        guard let window = gtk_widget_get_window(widget) else { return }
        let display = gdk_window_get_display(window)
        let keyboard = gdk_seat_get_keyboard(gdk_display_get_default_seat(display))
        var keycode: guint16 = 0
        var group: guint8 = 0
        var entries: UnsafeMutablePointer<GdkKeymapKey>?
        var count: gint = 0
        if gdk_keymap_get_entries_for_keyval(gdk_keymap_get_for_display(display), keyval, &entries, &count) != 0, let entries {
            if count > 0 {
                keycode = guint16(entries[0].keycode)
                group = guint8(truncatingIfNeeded: entries[0].group)
            }
            g_free(entries)
        }
        let unicode = gdk_keyval_to_unicode(keyval)
        for type in [GDK_KEY_PRESS, GDK_KEY_RELEASE] {
            let event = gdk_event_new(type)!
            event.pointee.key.window = window
            g_object_ref(UnsafeMutableRawPointer(window))  // gdk_event_free unrefs it
            event.pointee.key.send_event = 1
            event.pointee.key.time = gtk_get_current_event_time()
            event.pointee.key.keyval = keyval
            event.pointee.key.state = shift ? GDK_SHIFT_MASK.rawValue : 0
            event.pointee.key.hardware_keycode = keycode
            event.pointee.key.group = group
            if unicode != 0, let scalar = Unicode.Scalar(unicode) {
                let text = String(Character(scalar))
                event.pointee.key.string = g_strdup(text)  // gdk_event_free frees it
                event.pointee.key.length = gint(text.utf8.count)
            } else {
                event.pointee.key.string = g_strdup("")
            }
            if let keyboard { gdk_event_set_device(event, keyboard) }
            gtk_widget_event(widget, event)
            gdk_event_free(event)
        }
    }
}
