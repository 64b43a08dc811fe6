// The seat the on-screen keyboard and the pinch guard watch, as Xvfb has it. (The shapes of the
// signals they connect are checked with every other signal's in SignalCatalogTests.)
import CWebKitGtk
import GLibBridge
import PortholeUI
import TestSupport
import XCTest

final class SeatInputDevicesTests: XCTestCase {
    func testTheSeatUnderXvfbHasAPointerAndNoTouchscreen() {
        MainActor.assumeIsolated {
            _ = TestApp.application
            let devices = SeatInputDevices()
            defer { devices.stop() }
            XCTAssertFalse(devices.devices.isEmpty, "Xvfb's virtual pointer is listed")
            XCTAssertFalse(devices.devices.contains(.touchscreen))
        }
    }
}
