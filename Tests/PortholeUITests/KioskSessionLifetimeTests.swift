// An idle reset leaves nothing behind: the old web view and its web context are finalized.
import CWebKitGtk
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

/// Counts the GObjects it watches as they are finalized (GObject weak references).
@MainActor
private final class FinalizationProbe {
    private final class Box {
        var finalized = false
    }

    private var watched: [(object: UnsafeMutableRawPointer, box: Box)] = []

    func watch(_ object: UnsafeMutableRawPointer?) {
        guard let object else { return }
        let box = Box()
        watched.append((object, box))
        g_object_weak_ref(object.assumingMemoryBound(to: GObject.self), probeNotify, Unmanaged.passRetained(box).toOpaque())
    }

    var allFinalized: Bool { watched.allSatisfy(\.box.finalized) }
    var count: Int { watched.count }

    /// Stops watching what is still alive, so no notify reaches a freed box.
    func stop() {
        for (object, box) in watched where !box.finalized {
            let data = Unmanaged.passUnretained(box).toOpaque()
            g_object_weak_unref(object.assumingMemoryBound(to: GObject.self), probeNotify, data)
            Unmanaged<Box>.fromOpaque(data).release()
        }
        watched.removeAll()
    }
}

/// `void (*GWeakNotify)(gpointer data, GObject *where_the_object_was)`.
private let probeNotify: GWeakNotify = { data, _ in
    nonisolated(unsafe) let data = data
    MainActor.assumeIsolated { FinalizationProbe.finalize(data) }
}

extension FinalizationProbe {
    fileprivate static func finalize(_ data: UnsafeMutableRawPointer?) {
        let box = Unmanaged<Box>.fromOpaque(data!).takeRetainedValue()
        box.finalized = true
    }
}

final class KioskSessionLifetimeTests: XCTestCase {
    /// A kiosk window showing its one site, Home, served by a new test server.
    @MainActor
    private static func kioskShowingHome() -> (TestServer, BrowserWindow) {
        let server = TestServer()
        server.route = { _ in .html("<!DOCTYPE html><title>Home</title><h1>Home</h1>") }
        let window = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [Site(name: "Home", address: server.url("/"))]))
        window.goHome()
        XCTAssertTrue(UI.wait { server.count(path: "/") == 1 && window.state.title == "Home" })
        return (server, window)
    }

    /// 100 idle resets grew the kiosk's UI process by 22 MB. Each reset must let go of the old
    /// web view and the old web context: proved by their finalization, not by timing.
    func testANewVisitorSessionFinalizesTheOldWebViewAndContext() {
        MainActor.assumeIsolated {
            let (server, window) = Self.kioskShowingHome()
            defer { server.stop(); TestApp.destroy(window) }
            for round in 1...3 {
                let probe = FinalizationProbe()
                defer { probe.stop() }
                probe.watch(window.webView.map { UnsafeMutableRawPointer($0) })
                probe.watch(UnsafeMutableRawPointer(TestApp.engine.context))
                probe.watch(webkit_web_context_get_website_data_manager(TestApp.engine.context).map { UnsafeMutableRawPointer($0) })
                XCTAssertEqual(probe.count, 3)
                weak let oldCoordinator = window.coordinator
                window.startNewSession()
                XCTAssertNil(oldCoordinator, "the old coordinator (and the signal boxes it holds) is gone")
                XCTAssertTrue(UI.wait { server.count(path: "/") == round + 1 && window.state.title == "Home" }, "the new session shows home")
                XCTAssertTrue(UI.wait(20) { probe.allFinalized }, "round \(round): the old web view, web context and data manager are finalized")
            }
        }
    }

    /// WebKitGTK parents a GtkTextView (its key binding translator) to every web view and never
    /// unparents it: each reset left one behind with its buffer, layout and style contexts, about
    /// 11 KB of heap a reset. The view's own finalization is the event to wait for; the text view
    /// goes in the same unref, or never.
    func testANewVisitorSessionFinalizesTheOldWebViewsKeyBindingWidget() {
        MainActor.assumeIsolated {
            let (server, window) = Self.kioskShowingHome()
            defer { server.stop(); TestApp.destroy(window) }
            for round in 1...3 {
                guard let view = window.webView.map({ UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self) }) else {
                    return XCTFail("no web view")
                }
                let textViews = UI.allDescendants(of: view).filter { UI.isA($0, gtk_text_view_get_type()) }
                XCTAssertFalse(textViews.isEmpty, "WebKit's key binding widget is the view's internal child")
                let viewProbe = FinalizationProbe()
                let childProbe = FinalizationProbe()
                defer { viewProbe.stop(); childProbe.stop() }
                viewProbe.watch(UnsafeMutableRawPointer(view))
                textViews.forEach { childProbe.watch(UnsafeMutableRawPointer($0)) }
                window.startNewSession()
                XCTAssertTrue(UI.wait { server.count(path: "/") == round + 1 && window.state.title == "Home" }, "the new session shows home")
                XCTAssertTrue(UI.wait(20) { viewProbe.allFinalized }, "round \(round): the old web view is finalized")
                XCTAssertTrue(childProbe.allFinalized, "round \(round): its key binding text view went with it")
            }
        }
    }

    /// Every web view shares one user content manager, across visitor sessions: the style sheet
    /// that hides the PDF viewer's dead buttons goes in once. Adding it for each new web view put
    /// one more copy in the manager at every idle reset (and into every web process it fed), and
    /// a reload that allowed printing left the old sheet hiding Print.
    func testIdleResetsAndReloadsKeepOnePDFViewerStyleSheet() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html("<!DOCTYPE html><title>Home</title><h1>Home</h1>") }
            var configuration = TestApp.kioskConfiguration(sites: [Site(name: "Home", address: server.url("/"))])
            let window = TestApp.window(configuration: configuration)
            defer { TestApp.destroy(window) }
            let style = TestApp.engine.pdfViewerStyle
            window.goHome()
            XCTAssertTrue(UI.wait { server.count(path: "/") == 1 && window.state.title == "Home" })
            XCTAssertEqual(style.sheetsInManager, 1)
            XCTAssertEqual(style.printing, false, "a kiosk does not print unless [Kiosk] printing=true")
            for round in 1...3 {
                window.startNewSession()
                XCTAssertTrue(UI.wait { server.count(path: "/") == round + 1 && window.state.title == "Home" }, "the new session shows home")
                XCTAssertEqual(style.sheetsInManager, 1, "after \(round) idle resets")
            }
            configuration.kiosk.printing = true
            window.update(options: BrowserOptions(configuration: configuration, policy: SitePolicy(configuration: configuration)))
            XCTAssertEqual(style.sheetsInManager, 1, "the reload replaced the sheet")
            XCTAssertEqual(style.printing, true, "the Print buttons are no longer hidden")
        }
    }
}
