// The input devices connected now, and word when one is plugged in or out: the seam between
// the keyboard's `auto` decision and GDK, so that a test can give it any device list.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Lists the connected input devices and reports changes.
@MainActor
public protocol InputDeviceSource: AnyObject {
    var devices: [InputDeviceKind] { get }
    /// Called after a device is added or removed.
    var onChange: (@MainActor () -> Void)? { get set }
    /// Stops reporting changes (disconnects from the toolkit).
    func stop()
}

/// The default display's seat: its pointing and touch devices, and its `device-added` and
/// `device-removed` signals (a touchscreen plugged in later turns an `auto` keyboard on).
@MainActor
public final class SeatInputDevices: InputDeviceSource {
    public var onChange: (@MainActor () -> Void)?
    private let seat: ObjectOwner?

    public init() {
        guard let display = gdk_display_get_default(), let seat = gdk_display_get_default_seat(display) else {
            self.seat = nil
            return
        }
        let owner = ObjectOwner(retaining: UnsafeMutableRawPointer(seat))
        self.seat = owner
        // `void (*)(GdkSeat *seat, GdkDevice *device, gpointer data)`, both signals.
        for signal in ["device-added", "device-removed"] {
            owner.connect(signal, .pointer { [weak self] _ in self?.onChange?() })
        }
    }

    public var devices: [InputDeviceKind] {
        guard let seat = seat?.typed(GdkSeat.self) else { return [] }
        let capabilities = GdkSeatCapabilities(GDK_SEAT_CAPABILITY_ALL_POINTING.rawValue | GDK_SEAT_CAPABILITY_TOUCH.rawValue)
        var kinds: [InputDeviceKind] = []
        var node = gdk_seat_get_slaves(seat, capabilities)
        let list = node
        while let current = node {
            let device = OpaquePointer(current.pointee.data)
            kinds.append(Self.kind(gdk_device_get_source(device)))
            node = current.pointee.next
        }
        g_list_free(list)
        return kinds
    }

    private static func kind(_ source: GdkInputSource) -> InputDeviceKind {
        switch source {
        case GDK_SOURCE_TOUCHSCREEN: .touchscreen
        case GDK_SOURCE_MOUSE: .mouse
        case GDK_SOURCE_TOUCHPAD: .touchpad
        case GDK_SOURCE_PEN, GDK_SOURCE_ERASER: .pen
        case GDK_SOURCE_KEYBOARD: .keyboard
        default: .other
        }
    }

    public func stop() {
        onChange = nil
        seat?.release()
    }
}
