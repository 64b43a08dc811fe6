// The kiosk bar's visitor controls: Larger text and High contrast, and the speech button's place.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Finger-sized toggle buttons in the bottom bar, one step from any page. They show the
/// session's `VisitorControls` and report presses; they decide nothing themselves.
@MainActor
final class VisitorControlsBar {
    /// The group, packed into the kiosk bar.
    let widget: UnsafeMutablePointer<GtkWidget>
    /// Where the speech mode's on/off button goes: first in the group, before Larger text. Empty
    /// (and drawn as nothing) until the speech mode puts its button in it.
    let speechSlot: UnsafeMutablePointer<GtkWidget>
    private(set) var buttons: [VisitorControl: UnsafeMutablePointer<GtkWidget>] = [:]
    private let connections = SignalConnections()
    /// Set while `show` changes a button's state, so that is not taken for a press.
    private var showing = false

    init(onPress: @escaping @MainActor (VisitorControl) -> Void) {
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        speechSlot = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)
        gtk_container_add(widget.cast(), speechSlot)
        for control in VisitorControl.allCases {
            let button = gtk_toggle_button_new_with_label(control.label)!
            Accessibility.setName(button, control.label)
            gtk_widget_set_tooltip_text(button, control.label)
            gtk_widget_set_size_request(button, BrowserWindow.touchSize, BrowserWindow.touchSize)
            // As the bar's other buttons: a tap leaves the keyboard focus on the page.
            gtk_widget_set_focus_on_click(button, 0)
            gtk_container_add(widget.cast(), button)
            buttons[control] = button
            connections.connect(UnsafeMutableRawPointer(button), "clicked", .plain { [unowned self] in
                guard !self.showing else { return }
                onPress(control)
            })
        }
    }

    /// Shows `controls` as the buttons' states (pressed in for on).
    func show(_ controls: VisitorControls) {
        showing = true
        defer { showing = false }
        for (control, button) in buttons where (gtk_toggle_button_get_active(button.cast()) != 0) != controls.isOn(control) {
            gtk_toggle_button_set_active(button.cast(), controls.isOn(control) ? 1 : 0)
        }
    }

    func release() { connections.disconnectAll() }
}
