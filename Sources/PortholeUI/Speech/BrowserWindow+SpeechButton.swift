// The kiosk bar's speech button: turns the read-aloud mode on and off, and says what it does
// when focus reaches it, even while speech is off (SpeechController hears its focus).
import CWebKitGtk
import GLibBridge
import PortholeCore

@MainActor
extension BrowserWindow {
    func makeSpeechButton() -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_button_new_from_icon_name("audio-volume-high-symbolic", GTK_ICON_SIZE_LARGE_TOOLBAR)!
        gtk_widget_set_size_request(button, Self.touchSize, Self.touchSize)
        let key = options.speech.keys.first.map { " (\($0.spokenName))" } ?? ""
        gtk_widget_set_tooltip_text(button, tr("Read the screen aloud") + key)
        Accessibility.setName(button, tr("Speech"))
        gtk_widget_set_focus_on_click(button, 0)
        connections.connect(UnsafeMutableRawPointer(button), "clicked", .plain { [unowned self] in self.speech?.toggle() })
        speechButton = button
        return button
    }
}

extension KeyChord {
    /// The chord as a tooltip writes it: Ctrl+Alt+Z.
    var spokenName: String {
        var parts: [String] = []
        if modifiers.contains(.control) { parts.append("Ctrl") }
        if modifiers.contains(.alt) { parts.append("Alt") }
        if modifiers.contains(.shift) { parts.append("Shift") }
        if modifiers.contains(.superKey) { parts.append("Super") }
        return (parts + [key.count == 1 ? key.uppercased() : key]).joined(separator: "+")
    }
}
