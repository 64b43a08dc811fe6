// Emission hooks on plain GObjects: every emission seen, none after removal, the closure freed.
import CGLib
import GLibBridge
import XCTest

private final class Sentinel {
    let onFree: () -> Void
    init(onFree: @escaping () -> Void) { self.onFree = onFree }
    deinit { onFree() }
}

final class EmissionHookTests: XCTestCase {
    func testSeesEveryInstanceUntilRemovedThenFreesItsClosure() throws {
        try MainActor.assumeIsolated {
            let first = g_simple_action_new("first", nil)!
            let second = g_simple_action_new("second", nil)!
            defer {
                g_object_unref(UnsafeMutableRawPointer(first))
                g_object_unref(UnsafeMutableRawPointer(second))
            }
            var seen: [UnsafeMutableRawPointer?] = []
            var freed = false
            var hook: EmissionHook?
            do {
                let sentinel = Sentinel { freed = true }
                hook = EmissionHook(type: g_simple_action_get_type(), signal: "activate") { instance, arguments in
                    _ = sentinel
                    seen.append(instance)
                    XCTAssertEqual(arguments.count, 1, "activate has one argument, the parameter")
                }
            }
            let installed = try XCTUnwrap(hook)
            // GSimpleAction emits "activate" only when a handler is connected.
            let handlers = SignalConnections()
            defer { handlers.disconnectAll() }
            handlers.connect(UnsafeMutableRawPointer(first), "activate", .pointer { _ in })
            handlers.connect(UnsafeMutableRawPointer(second), "activate", .pointer { _ in })
            g_action_activate(first, nil)
            g_action_activate(second, nil)
            XCTAssertEqual(seen, [UnsafeMutableRawPointer(first), UnsafeMutableRawPointer(second)] as [UnsafeMutableRawPointer?])
            XCTAssertFalse(freed)
            installed.remove()
            XCTAssertTrue(freed, "removing the hook releases its closure")
            g_action_activate(first, nil)
            XCTAssertEqual(seen.count, 2, "no calls after removal")
            installed.remove()
            XCTAssertFalse(installed.isInstalled)
        }
    }

    func testUnknownSignalsGiveNoHook() {
        MainActor.assumeIsolated {
            XCTAssertNil(EmissionHook(type: g_simple_action_get_type(), signal: "no-such-signal") { _, _ in })
        }
    }
}
