// Kiosk test helpers: kiosk windows built from a Configuration, pointer motion, a self-signed
// certificate, the events a window reports.
import CWebKitGtk
import Foundation
import GLibBridge
import PortholeCore
import PortholeUI

@MainActor
extension TestApp {
    /// A window built from `configuration` as the application builds it (site policy, rules,
    /// kiosk settings), with the kiosk's accelerators installed. Shown unless `show` is false.
    /// Close it with `destroy(_:)`: a kiosk window refuses to close.
    public static func window(configuration: Configuration, show: Bool = true) -> BrowserWindow {
        engine.sites = configuration.sites
        engine.namesWhomToAsk = BrowsingRules(configuration: configuration).namesWhomToAsk
        let options = BrowserOptions(configuration: configuration, policy: SitePolicy(configuration: configuration))
        BrowserWindow.installAccelerators(on: application, kiosk: options.kiosk)
        let window = BrowserWindow(application: application, engine: engine, options: options)
        if show { window.show() }
        return window
    }

    /// A shown window as `window(configuration:)` builds it, with kiosk mode on `clock`: a
    /// `ManualClock` lets a test move the kiosk's timers on by hand instead of waiting for them.
    /// Close it with `destroy(_:)`: a kiosk window refuses to close.
    public static func window(configuration: Configuration, clock: any Clock) -> BrowserWindow {
        engine.sites = configuration.sites
        engine.namesWhomToAsk = BrowsingRules(configuration: configuration).namesWhomToAsk
        engine.webProcessPolicy = WebProcessPolicy(configuration: configuration)
        var options = BrowserOptions(configuration: configuration, policy: SitePolicy(configuration: configuration))
        options.clock = clock
        let window = BrowserWindow(application: application, engine: engine, options: options)
        window.show()
        return window
    }

    /// A kiosk configuration whose sites are `sites` (the first is home), with `edit` applied.
    public static func kioskConfiguration(sites: [Site], _ edit: (inout Configuration) -> Void = { _ in }) -> Configuration {
        var configuration = Configuration(sites: SiteList(sites))
        configuration.kiosk.enabled = true
        edit(&configuration)
        return configuration
    }

    /// Destroys the window (no close request, which a kiosk refuses), lets GTK finish, and puts
    /// the desktop accelerators back for the other tests.
    public static func destroy(_ window: BrowserWindow) {
        if let widget = window.window { gtk_widget_destroy(widget) }
        MainLoop.iterate(timeout: 2) { window.window == nil }
        BrowserWindow.installAccelerators(on: application)
    }
}

/// Records the events a window reports through `onEvent`.
@MainActor
public final class EventLog {
    public private(set) var events: [PageNotice] = []

    public init(_ window: BrowserWindow) {
        window.onEvent = { [weak self] event in self?.events.append(event) }
    }

    public var refusals: [String] {
        events.compactMap { if case .refused(let what) = $0 { what } else { nil } }
    }

    public var permissions: [(String, Bool)] {
        events.compactMap { if case .permissionAnswered(let name, let granted) = $0 { (name, granted) } else { nil } }
    }

    /// Whether the load under way (since the last one ended, or the visitor session began) has
    /// told its start. A sign-in dialog open then was asked by that started load: WebKit withdraws
    /// a request that reached the window before its load's start, at that start (SignInRecovery),
    /// so a dialog seen earlier may close unanswered and a new one open for the load again.
    public var loadUnderWayStarted: Bool {
        let since = events.lastIndex { $0 == .loadFinished || $0 == .visitorSessionStarted }.map { $0 + 1 } ?? 0
        return events[since...].contains(.loadStarted)
    }
}

@MainActor
extension UI {
    /// Waits until `window` shows a sign-in dialog asked by a load that has told its start (see
    /// `EventLog.loadUnderWayStarted`): the dialog a test can fill in without WebKit withdrawing it.
    @discardableResult
    public static func waitForSignIn(_ window: BrowserWindow, _ events: EventLog, timeout: Double = 15,
                                     and condition: () -> Bool = { true }) -> Bool {
        wait(timeout) { events.loadUnderWayStarted && window.signInEntries != nil && condition() }
    }
}

@MainActor
extension UI {
    /// Sends pointer motion to the web view, as moving the mouse over it would.
    public static func move(in window: BrowserWindow, x: Double = 40, y: Double = 40) {
        guard let view = window.webView else { return }
        let widget = UnsafeMutableRawPointer(view).assumingMemoryBound(to: GtkWidget.self)
        guard let gdkWindow = gtk_widget_get_window(widget) else { return }
        let pointer = gdk_seat_get_pointer(gdk_display_get_default_seat(gdk_window_get_display(gdkWindow)))
        let event = gdk_event_new(GDK_MOTION_NOTIFY)!
        event.pointee.motion.window = gdkWindow
        g_object_ref(UnsafeMutableRawPointer(gdkWindow))
        event.pointee.motion.send_event = 1
        event.pointee.motion.time = guint32(GDK_CURRENT_TIME)
        event.pointee.motion.x = x
        event.pointee.motion.y = y
        gdk_event_set_device(event, pointer)
        gdk_event_set_source_device(event, pointer)
        gtk_main_do_event(event)
        gdk_event_free(event)
    }

    /// Moves the real pointer to (x, y) in the window: the X server then sends motion events to
    /// the window under it, as a mouse would.
    public static func warpPointer(in window: BrowserWindow, x: Double, y: Double) {
        guard let widget = window.window, let gdkWindow = gtk_widget_get_window(widget) else { return }
        let display = gdk_window_get_display(gdkWindow)
        let pointer = gdk_seat_get_pointer(gdk_display_get_default_seat(display))
        var originX: gint = 0, originY: gint = 0
        gdk_window_get_origin(gdkWindow, &originX, &originY)
        gdk_device_warp(pointer, gdk_window_get_screen(gdkWindow), originX + gint(x), originY + gint(y))
        gdk_display_flush(display)
    }

    /// The type of the cursor set on the web view's GdkWindow (nil when none is set).
    public static func cursorType(in window: BrowserWindow) -> GdkCursorType? {
        guard let view = window.webView,
              let gdkWindow = gtk_widget_get_window(UnsafeMutableRawPointer(view).assumingMemoryBound(to: GtkWidget.self)),
              let cursor = gdk_window_get_cursor(gdkWindow) else { return nil }
        return gdk_cursor_get_cursor_type(cursor)
    }
}

/// A self-signed certificate for 127.0.0.1, made with the openssl command at test time.
public enum TestCertificate {
    /// A new GTlsCertificate (with its key) for 127.0.0.1; nil when openssl is missing.
    public static func selfSigned() -> UnsafeMutablePointer<GTlsCertificate>? {
        let directory = NSTemporaryDirectory() + "porthole-tls-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let certificate = directory + "/cert.pem"
        let key = directory + "/key.pem"
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                             "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        guard (try? openssl.run()) != nil else { return nil }
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else { return nil }
        var error: UnsafeMutablePointer<GError>?
        let tls = g_tls_certificate_new_from_files(certificate, key, &error)
        _ = GLibError.take(error)
        return tls
    }
}
