// Lifetime of signal closures and object owners on plain GObjects (no display needed).
import CGLib
import GLibBridge
import XCTest

/// Sets its flag when freed, so a test can see that a closure capturing it was released.
private final class Sentinel {
    let onFree: () -> Void
    init(onFree: @escaping () -> Void) { self.onFree = onFree }
    deinit { onFree() }
}

private func newAction() -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(g_simple_action_new("test", nil)!)
}

private func activate(_ action: UnsafeMutableRawPointer) {
    g_action_activate(OpaquePointer(action), nil)
}

final class SignalLifetimeTests: XCTestCase {
    func testHandlerFiresWhileConnected() {
        MainActor.assumeIsolated {
            let owner = ObjectOwner(adopting: newAction())
            var calls = 0
            owner.connect("activate", .pointer { _ in calls += 1 })
            activate(owner.pointer!)
            activate(owner.pointer!)
            XCTAssertEqual(calls, 2)
            owner.release()
        }
    }

    func testBoxIsFreedWhenObjectDies() {
        MainActor.assumeIsolated {
            let action = newAction()
            var freed = false
            var calls = 0
            do {
                let sentinel = Sentinel { freed = true }
                connectSignal(action, "activate", .pointer { _ in _ = sentinel; calls += 1 })
            }
            activate(action)
            XCTAssertEqual(calls, 1)
            XCTAssertFalse(freed, "the connection keeps the box alive while the object lives")
            g_object_unref(action)
            XCTAssertTrue(freed, "finalizing the object releases the closure box")
        }
    }

    func testBoxIsFreedOnDisconnectAndNeverFiresAgain() {
        MainActor.assumeIsolated {
            let owner = ObjectOwner(adopting: newAction())
            var freed = false
            var calls = 0
            var id: UInt = 0
            do {
                let sentinel = Sentinel { freed = true }
                id = owner.connect("activate", .pointer { _ in _ = sentinel; calls += 1 })
            }
            XCTAssertNotEqual(id, 0)
            activate(owner.pointer!)
            owner.disconnect(id)
            XCTAssertTrue(freed, "disconnecting releases the box at once")
            XCTAssertFalse(owner.isConnected(id))
            activate(owner.pointer!)
            XCTAssertEqual(calls, 1, "a disconnected handler never fires again")
            owner.release()
        }
    }

    func testOwnerReleaseDisconnectsBeforeUnrefEvenWhenOthersHoldTheObject() {
        MainActor.assumeIsolated {
            let action = newAction()
            g_object_ref(action)  // someone else keeps the object alive
            let owner = ObjectOwner(adopting: action)
            var freed = false
            var calls = 0
            do {
                let sentinel = Sentinel { freed = true }
                owner.connect("activate", .pointer { _ in _ = sentinel; calls += 1 })
            }
            owner.release()
            XCTAssertTrue(freed, "the owner disconnected its handlers although the object lives on")
            activate(action)
            XCTAssertEqual(calls, 0)
            g_object_unref(action)
        }
    }

    func testNotifyHandlerSeesPropertyChanges() {
        MainActor.assumeIsolated {
            let owner = ObjectOwner(adopting: newAction())
            var notified = 0
            owner.connect("notify::enabled", .pointer { _ in notified += 1 })
            g_simple_action_set_enabled(owner.opaque, 0)
            XCTAssertEqual(notified, 1)
            owner.release()
        }
    }

    func testUnknownSignalIsRefusedAndReleasesTheBox() {
        MainActor.assumeIsolated {
            let owner = ObjectOwner(adopting: newAction())
            var freed = false
            // GLib logs a critical for the unknown signal; the connection must still not leak.
            do {
                let sentinel = Sentinel { freed = true }
                XCTAssertEqual(owner.connect("no-such-signal", .plain { _ = sentinel }), 0)
            }
            XCTAssertTrue(freed)
            owner.release()
        }
    }

    func testOwnerDeinitReleasesEverything() {
        MainActor.assumeIsolated {
            let action = newAction()
            g_object_ref(action)
            var freed = false
            do {
                let owner = ObjectOwner(adopting: action)
                let sentinel = Sentinel { freed = true }
                owner.connect("activate", .pointer { _ in _ = sentinel })
            }
            XCTAssertTrue(freed, "dropping the owner disconnects its handlers")
            XCTAssertEqual(action.assumingMemoryBound(to: GObject.self).pointee.ref_count, 1, "and drops its reference")
            g_object_unref(action)
        }
    }
}

final class MainLoopTests: XCTestCase {
    func testIdleRunsOnceAndReleasesItsClosure() {
        MainActor.assumeIsolated {
            var runs = 0
            var freed = false
            do {
                let sentinel = Sentinel { freed = true }
                MainLoop.idle { _ = sentinel; runs += 1 }
            }
            XCTAssertTrue(MainLoop.iterate(timeout: 5) { runs == 1 })
            // An idle added now runs in a later iteration, after the first idle would have run
            // again had it repeated (same priority, dispatched in the order they were added).
            var later = false
            MainLoop.idle { later = true }
            XCTAssertTrue(MainLoop.iterate(timeout: 5) { later })
            XCTAssertEqual(runs, 1)
            XCTAssertTrue(freed)
        }
    }

    func testCancelledTimeoutNeverRuns() {
        MainActor.assumeIsolated {
            var ran = false
            var freed = false
            do {
                let sentinel = Sentinel { freed = true }
                let source = MainLoop.after(milliseconds: 50) { _ = sentinel; ran = true }
                XCTAssertTrue(source.isActive)
                source.cancel()
                XCTAssertFalse(source.isActive)
            }
            XCTAssertTrue(freed, "cancelling frees the closure")
            // A later timeout fires after the cancelled one's time: by then it would have run.
            var later = false
            MainLoop.after(milliseconds: 60) { later = true }
            XCTAssertTrue(MainLoop.iterate(timeout: 5) { later })
            XCTAssertFalse(ran)
        }
    }

    func testRepeatingTimerStopsWhenItReturnsFalse() {
        MainActor.assumeIsolated {
            var ticks = 0
            let source = MainLoop.every(milliseconds: 10) { ticks += 1; return ticks < 3 }
            XCTAssertTrue(MainLoop.iterate(timeout: 5) { !source.isActive })
            XCTAssertEqual(ticks, 3)
        }
    }

    func testPostFromAnotherThreadRunsOnTheMainLoop() {
        MainActor.assumeIsolated {
            final class Flag: @unchecked Sendable {  // written and read on the main thread only
                var value = false
            }
            let flag = Flag()
            let thread = Thread { MainLoop.post { flag.value = Thread.isMainThread } }
            thread.start()
            XCTAssertTrue(MainLoop.iterate(timeout: 5) { flag.value })
        }
    }

    func testIterateGivesUpAtTheDeadline() {
        MainActor.assumeIsolated {
            let start = g_get_monotonic_time()
            XCTAssertFalse(MainLoop.iterate(timeout: 0.2) { false })
            XCTAssertGreaterThanOrEqual(g_get_monotonic_time() - start, 200_000)
        }
    }
}
