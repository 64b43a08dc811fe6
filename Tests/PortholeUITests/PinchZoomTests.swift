// [Browser] pinch-zoom: a kiosk's page cannot be pinched out of its layout; a desk's can.
import CWebKitGtk
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

/// A two-finger pinch spreading to `scale`, as a touchpad reports it (GDK_TOUCHPAD_PINCH).
@MainActor
private func touchpadPinch(_ window: BrowserWindow, to scale: Double) {
    guard let view = window.webView,
          let gdkWindow = gtk_widget_get_window(UnsafeMutableRawPointer(view).assumingMemoryBound(to: GtkWidget.self)) else { return }
    let pointer = gdk_seat_get_pointer(gdk_display_get_default_seat(gdk_window_get_display(gdkWindow)))
    let steps = [(GDK_TOUCHPAD_GESTURE_PHASE_BEGIN, 1.0), (GDK_TOUCHPAD_GESTURE_PHASE_UPDATE, (1 + scale) / 2),
                 (GDK_TOUCHPAD_GESTURE_PHASE_UPDATE, scale), (GDK_TOUCHPAD_GESTURE_PHASE_END, scale)]
    for (phase, value) in steps {
        let event = gdk_event_new(GDK_TOUCHPAD_PINCH)!
        event.pointee.touchpad_pinch.window = gdkWindow
        g_object_ref(UnsafeMutableRawPointer(gdkWindow))
        event.pointee.touchpad_pinch.send_event = 1
        event.pointee.touchpad_pinch.time = guint32(GDK_CURRENT_TIME)
        event.pointee.touchpad_pinch.phase = Int8(phase.rawValue)
        event.pointee.touchpad_pinch.n_fingers = 2
        event.pointee.touchpad_pinch.x = 100
        event.pointee.touchpad_pinch.y = 100
        event.pointee.touchpad_pinch.scale = value
        gdk_event_set_device(event, pointer)
        gdk_event_set_source_device(event, pointer)
        gtk_main_do_event(event)
        gdk_event_free(event)
    }
}

final class PinchZoomTests: XCTestCase {
    func testAKioskPageCannotBePinchZoomed() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html("<!DOCTYPE html><html><head><title>Map</title></head><body>Map</body></html>") }
            let configuration = TestApp.kioskConfiguration(sites: [Site(name: "Map", address: server.url("/map"))])
            let window = TestApp.window(configuration: configuration)
            defer { TestApp.destroy(window) }
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/map")))
            touchpadPinch(window, to: 2)
            // Without the guard the same events zoom the page to 2x (paced 0.3 s apart, as a
            // hand would; not kept as a test, which would have to sleep).
            XCTAssertEqual(window.pinchEventsDropped, 4, "every step of the pinch is kept from WebKit")
            XCTAssertEqual(UI.evaluate("String(window.visualViewport.scale)", in: window), "1")
        }
    }

    func testPinchZoomIsOnAtADeskAndWhenSet() {
        MainActor.assumeIsolated {
            for (kiosk, pinchZoom, guarded) in [(false, nil, false), (true, true, false), (false, false, true), (true, nil, true)] as [(Bool, Bool?, Bool)] {
                var configuration = Configuration(sites: SiteList([Site(name: "Start", address: "porthole://start/")]))
                configuration.kiosk.enabled = kiosk
                configuration.browser.pinchZoom = pinchZoom
                let window = TestApp.window(configuration: configuration)
                XCTAssertEqual(window.pinchEventsDropped != nil, guarded, "kiosk \(kiosk), pinch-zoom \(String(describing: pinchZoom))")
                TestApp.destroy(window)
            }
        }
    }

    func testAConfigurationReloadTurnsPinchZoomOff() {
        MainActor.assumeIsolated {
            var configuration = Configuration(sites: SiteList([Site(name: "Start", address: "porthole://start/")]))
            let window = TestApp.window(configuration: configuration)
            defer { TestApp.destroy(window) }
            XCTAssertNil(window.pinchEventsDropped)
            configuration.browser.pinchZoom = false
            window.update(options: BrowserOptions(configuration: configuration, policy: SitePolicy(configuration: configuration)))
            XCTAssertEqual(window.pinchEventsDropped, 0, "guarded from now on")
        }
    }
}
