// Every signal Porthole connects has the C signature its trampoline reads: checked against GLib's
// record of the real signal (g_signal_query), so a wrong handler shape cannot compile into
// undefined behaviour unnoticed.
import CWebKitGtk
import GLibBridge
import PortholeUI
import TestSupport
import XCTest

final class SignalCatalogTests: XCTestCase {
    func testEverySignalPortholeConnectsHasTheShapeOfItsHandler() {
        MainActor.assumeIsolated {
            _ = TestApp.application  // gtk_init
            SignalCatalog.registerTypes()
            XCTAssertGreaterThan(SignalCatalog.all.count, 30)
            for declaration in SignalCatalog.all {
                let type = g_type_from_name(declaration.typeName)
                XCTAssertNotEqual(type, 0, "\(declaration.typeName) is a registered type")
                guard type != 0 else { continue }
                let real = SignalShape(of: declaration.signal, on: type)
                XCTAssertEqual(real, declaration.shape, "\(declaration.typeName) \(declaration.signal): GLib says \(real?.description ?? "no such signal")")
            }
        }
    }

    /// Whatever this process connected so far (the tests before, and a window here) is declared in
    /// the catalog with the same shape, on the type or an ancestor of it.
    func testEverySignalConnectedIsInTheCatalog() {
        MainActor.assumeIsolated {
            SignalCatalog.registerTypes()
            let window = TestApp.window(sites: [])
            defer { TestApp.close(window) }
            window.load(url: "about:blank")
            UI.waitForLoad(window)
            XCTAssertFalse(ConnectedSignal.seen.isEmpty)
            let declared = SignalCatalog.all.map { (type: g_type_from_name($0.typeName), $0.signal, $0.shape) }
            for connected in ConnectedSignal.seen {
                let name = String(cString: g_type_name(connected.type))
                // Test helpers connect probes of their own ("no-such-signal", "notify::enabled", "draw").
                guard !["GSimpleAction:notify::enabled", "GtkApplicationWindow:draw"].contains("\(name):\(connected.signal)") else { continue }
                XCTAssertTrue(declared.contains { g_type_is_a(connected.type, $0.type) != 0 && $0.1 == connected.signal && $0.2 == connected.shape },
                              "\(name) \(connected.signal) \(connected.shape) is declared in SignalCatalog")
            }
        }
    }

    func testAHandlerOfTheWrongShapeIsNeverConnected() {
        MainActor.assumeIsolated {
            let action = g_simple_action_new("probe", nil)!
            defer { g_object_unref(UnsafeMutableRawPointer(action)) }
            var calls = 0
            // GSimpleAction "activate" passes a GVariant*; a plain handler would read it as user data.
            let id = connectSignal(UnsafeMutableRawPointer(action), "activate", .plain { calls += 1 })
            XCTAssertEqual(id, 0)
            g_action_activate(action, nil)
            XCTAssertEqual(calls, 0)
            let good = connectSignal(UnsafeMutableRawPointer(action), "activate", .pointer { _ in calls += 1 })
            XCTAssertNotEqual(good, 0)
            g_action_activate(action, nil)
            XCTAssertEqual(calls, 1)
        }
    }
}
