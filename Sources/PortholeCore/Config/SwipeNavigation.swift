// `[Browser] swipe-navigation=`: whether touchpad and touchscreen swipes go back and forward.

/// `[Browser] swipe-navigation=`. WebKit keeps a snapshot of each page in the history for a
/// swipe's preview (memory and time per navigation), so `auto` pays for it only where a swipe
/// can happen.
public enum SwipeNavigation: String, Sendable, CaseIterable {
    /// On while a touchpad or touchscreen is connected (the default).
    case auto
    /// Always on.
    case on = "true"
    /// Always off.
    case off = "false"

    /// Whether swipes navigate, given the connected input devices.
    public func isEnabled(devices: [InputDeviceKind]) -> Bool {
        switch self {
        case .on: true
        case .off: false
        case .auto: devices.contains(.touchpad) || devices.contains(.touchscreen)
        }
    }
}
