// The signals the keyboard and the pinch guard connect have the C shapes their trampolines assume.
import CWebKitGtk
import GLibBridge
import PortholeUI
import TestSupport
import XCTest

private let void: GType = 1 << 2       // G_TYPE_NONE
private let boolean: GType = 5 << 2    // G_TYPE_BOOLEAN

/// The return type and the parameter count of `signal` on `type` (instance and data not counted).
private func shape(_ type: GType, _ signal: String) -> (returns: GType, parameters: UInt32)? {
    let typeClass = g_type_class_ref(type)  // signals are registered by class_init
    defer { g_type_class_unref(typeClass) }
    let id = g_signal_lookup(signal, type)
    guard id != 0 else { return nil }
    var query = GSignalQuery()
    g_signal_query(id, &query)
    return (query.return_type & ~GType(1), query.n_params)  // without G_SIGNAL_TYPE_STATIC_SCOPE
}

final class KeyboardSignalShapeTests: XCTestCase {
    func testSignalsMatchTheirHandlerShapes() {
        MainActor.assumeIsolated {
            _ = TestApp.application  // GTK initialised, types registered
            let rows: [(GType, String, GType, UInt32)] = [
                (webkit_user_content_manager_get_type(), "script-message-received", void, 1),  // .pointer
                (gdk_seat_get_type(), "device-added", void, 1),                                 // .pointer
                (gdk_seat_get_type(), "device-removed", void, 1),                               // .pointer
                (gtk_widget_get_type(), "touch-event", boolean, 1),                             // .pointerReturningBool
                (gtk_widget_get_type(), "event", boolean, 1),                                   // .pointerReturningBool
                (gtk_button_get_type(), "clicked", void, 0),                                    // .plain
            ]
            for (type, signal, returns, parameters) in rows {
                let found = shape(type, signal)
                XCTAssertEqual(found?.returns, returns, signal)
                XCTAssertEqual(found?.parameters, parameters, signal)
            }
        }
    }

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
