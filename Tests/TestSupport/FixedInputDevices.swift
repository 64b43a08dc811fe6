// A device list a test sets, for the keyboard's `auto` mode.
import PortholeCore
import PortholeUI

/// A fixed device list that changes when the test says so (a touchscreen plugged in).
@MainActor
public final class FixedInputDevices: InputDeviceSource {
    public var devices: [InputDeviceKind] { didSet { onChange?() } }
    public var onChange: (@MainActor () -> Void)?

    public init(_ devices: [InputDeviceKind]) { self.devices = devices }
    public func stop() { onChange = nil }
}
