// Every signal Porthole connects has the C signature its trampoline reads: checked against GLib's
// record of the real signal (g_signal_query), so a wrong handler shape cannot compile into
// undefined behaviour unnoticed.
import CWebKitGtk
import Foundation
@testable import GLibBridge
import PortholeCore
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

    /// What a desk window and a kiosk window connect, opened here on a page, is declared in the
    /// catalog with the same shape, on the type or an ancestor of it. The record is emptied first,
    /// so the test checks the same connections whichever tests ran before it.
    func testEverySignalConnectedIsInTheCatalog() {
        MainActor.assumeIsolated {
            SignalCatalog.registerTypes()
            ConnectedSignal.seen = []
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html("<title>Signals</title><p>page</p>") }
            let sites = [Site(name: "Page", address: server.url("/"))]
            let desk = TestApp.window(sites: sites)
            desk.goHome()
            XCTAssertTrue(UI.waitForLoad(desk, uri: server.url("/")), "the desk window loads its page")
            TestApp.close(desk)
            let kiosk = TestApp.window(configuration: TestApp.kioskConfiguration(sites: sites))
            kiosk.goHome()
            XCTAssertTrue(UI.waitForLoad(kiosk, uri: server.url("/")), "the kiosk window loads its page")
            TestApp.destroy(kiosk)
            let names = Set(ConnectedSignal.seen.map(\.signal))
            for signal in ["decide-policy", "load-changed", "load-failed", "authenticate", "notify::title"] {
                XCTAssertTrue(names.contains(signal), "a window connects \(signal): \(names.sorted())")
            }
            let declared = SignalCatalog.all.map { (type: g_type_from_name($0.typeName), $0.signal, $0.shape) }
            for connected in ConnectedSignal.seen {
                let name = String(cString: g_type_name(connected.type))
                XCTAssertTrue(declared.contains { g_type_is_a(connected.type, $0.type) != 0 && $0.1 == connected.signal && $0.2 == connected.shape },
                              "\(name) \(connected.signal) \(connected.shape) is declared in SignalCatalog")
            }
        }
    }

    /// Every connection written out in Sources (a signal name and a handler case, as in
    /// `connect(object, "clicked", .plain { ... })`) is declared in the catalog with that shape,
    /// the ones no test reaches included.
    func testEverySignalConnectedInTheSourcesIsInTheCatalog() throws {
        try MainActor.assumeIsolated {
            let shapes: [String: SignalShape] = [
                "plain": SignalHandler.plain { }.shape,
                "pointer": SignalHandler.pointer { _ in }.shape,
                "twoPointers": SignalHandler.twoPointers { _, _ in }.shape,
                "enumValue": SignalHandler.enumValue { _ in }.shape,
                "pointerReturningBool": SignalHandler.pointerReturningBool { _ in false }.shape,
                "twoPointersReturningBool": SignalHandler.twoPointersReturningBool { _, _ in false }.shape,
                "threePointersReturningBool": SignalHandler.threePointersReturningBool { _, _, _ in false }.shape,
                "pointerEnumReturningBool": SignalHandler.pointerEnumReturningBool { _, _ in false }.shape,
                "pointerEnum": SignalHandler.pointerEnum { _, _ in }.shape,
                "enumStringErrorReturningBool": SignalHandler.enumStringErrorReturningBool { _, _, _ in false }.shape,
                "stringPointerEnumReturningBool": SignalHandler.stringPointerEnumReturningBool { _, _, _ in false }.shape,
                "pointerReturningPointer": SignalHandler.pointerReturningPointer { _ in nil }.shape,
                "pointerReturningInt": SignalHandler.pointerReturningInt { _ in 0 }.shape,
                "dragDrop": SignalHandler.dragDrop { _, _, _, _ in false }.shape,
                "dragDataReceived": SignalHandler.dragDataReceived { _, _, _ in }.shape,
                "fileChanged": SignalHandler.fileChanged { _ in }.shape,
            ]
            let pattern = try NSRegularExpression(pattern: #"connect\w*\([^"\n]*"([a-z:-]+)",\s*\.(\w+)"#)
            let sources = BuildProducts.packageRoot + "/Sources"
            var found = 0
            for case let file as String in FileManager.default.enumerator(atPath: sources)! where file.hasSuffix(".swift") && !file.hasPrefix("GLibBridge/") {
                let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
                for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    guard let signalRange = Range(match.range(at: 1), in: text), let caseRange = Range(match.range(at: 2), in: text) else { continue }
                    let signal = String(text[signalRange])
                    let handler = String(text[caseRange])
                    found += 1
                    guard let shape = shapes[handler] else {
                        XCTFail("\(file): \(signal) is connected with .\(handler), a case this test does not know")
                        continue
                    }
                    XCTAssertTrue(SignalCatalog.all.contains { $0.signal == signal && $0.shape == shape },
                                  "\(file): \(signal) .\(handler) is declared in SignalCatalog")
                }
            }
            XCTAssertGreaterThan(found, 40, "the connections in Sources are found")
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
