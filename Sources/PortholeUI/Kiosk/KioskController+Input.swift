// GTK's events as the kiosk session's inputs: a key press as a chord, a GDK event as a
// visitor's input (or none).
import CWebKitGtk
import PortholeCore

extension KioskController {
    /// A key press as the chord the session's rules (shortcuts, the exit chord) are written in.
    static func chord(_ key: GdkEventKey) -> KeyChord? {
        guard let name = gdk_keyval_name(gdk_keyval_to_lower(key.keyval)) else { return nil }
        var modifiers: KeyChord.Modifiers = []
        if key.state & GDK_CONTROL_MASK.rawValue != 0 { modifiers.insert(.control) }
        if key.state & GDK_MOD1_MASK.rawValue != 0 { modifiers.insert(.alt) }
        if key.state & GDK_SHIFT_MASK.rawValue != 0 { modifiers.insert(.shift) }
        if key.state & (GDK_SUPER_MASK.rawValue | GDK_MOD4_MASK.rawValue) != 0 { modifiers.insert(.superKey) }
        return KeyChord(String(cString: name), modifiers)
    }

    /// What a GDK event is to the kiosk, or nil when it is not a visitor's input. A touchscreen
    /// moves the pointer too: only a real pointer's events are `.pointer`.
    static func input(_ event: UnsafeMutablePointer<GdkEvent>) -> KioskInput? {
        switch event.pointee.type {
        case GDK_TOUCH_BEGIN:
            return .touch
        case GDK_MOTION_NOTIFY, GDK_BUTTON_PRESS, GDK_SCROLL:
            let device = gdk_event_get_source_device(event)
            return device == nil || gdk_device_get_source(device) != GDK_SOURCE_TOUCHSCREEN ? .pointer : .other
        case GDK_KEY_PRESS, GDK_TOUCH_UPDATE, GDK_TOUCHPAD_SWIPE, GDK_TOUCHPAD_PINCH:
            return .other
        default:
            return nil
        }
    }
}
