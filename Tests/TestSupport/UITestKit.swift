// The test application, waits on the main loop, synthesized input and page inspection.
import CWebKitGtk
import GLibBridge
import PortholeCore
import PortholeUI

/// One GtkApplication and one BrowserEngine for the whole test process (WebKit registers a URI
/// scheme once per context).
@MainActor
public enum TestApp {
    private static var app: UnsafeMutablePointer<GtkApplication>?
    private static var sharedEngine: BrowserEngine?

    public static var application: UnsafeMutablePointer<GtkApplication> {
        if let app { return app }
        gtk_init(nil, nil)
        let created = gtk_application_new("dev.porthole.Tests", G_APPLICATION_NON_UNIQUE)!
        var error: UnsafeMutablePointer<GError>?
        g_application_register(created.cast(), nil, &error)
        if let message = GLibError.take(error)?.message { fatalError("cannot register the test application: \(message)") }
        BrowserWindow.installAccelerators(on: created)
        app = created
        return created
    }

    public static var engine: BrowserEngine {
        if let sharedEngine { return sharedEngine }
        _ = application
        // Web processes sandboxed as `[Browser] sandbox=auto` has them where bubblewrap runs.
        let engine = BrowserEngine(sites: SiteList([]), ephemeral: true, sandboxed: SandboxSetup.availability() == .runs)
        sharedEngine = engine
        return engine
    }

    /// A shown window on `sites`, with every navigation allowed unless `decide` says otherwise.
    public static func window(sites: [Site], settings: WebViewSettings = WebViewSettings(),
                              decide: @escaping @Sendable (PolicyRequest) -> PolicyDecision = { _ in .allowed("allowed: every navigation (test)") }) -> BrowserWindow {
        let list = SiteList(sites)
        engine.sites = list
        engine.namesWhomToAsk = false
        // `decide` alone governs these windows: the web processes refuse nothing (file: included).
        engine.webProcessPolicy = WebProcessPolicy(sites: [], allow: ["file://*"], block: [])
        let window = BrowserWindow(application: application, engine: engine,
                                   options: BrowserOptions(sites: list, settings: settings, decide: decide))
        window.show()
        return window
    }

    /// A shown window whose sites are `sites` (name, path) on `server`, opened on the first site;
    /// when `title` is given, returns once the header shows it (or the wait times out).
    public static func window(on server: TestServer, sites: [(name: String, path: String)], showing title: String? = nil) -> BrowserWindow {
        let window = window(sites: sites.map { Site(name: $0.name, address: server.url($0.path)) })
        window.goHome()
        if let title { UI.wait { window.headerTitle == title } }
        return window
    }

    /// A shown window whose navigations the real site policy decides, for `configuration`.
    public static func window(configuration: Configuration) -> BrowserWindow {
        engine.sites = configuration.sites
        engine.namesWhomToAsk = BrowsingRules(configuration: configuration).namesWhomToAsk
        engine.webProcessPolicy = WebProcessPolicy(configuration: configuration)
        let options = BrowserOptions(configuration: configuration, policy: SitePolicy(configuration: configuration))
        let window = BrowserWindow(application: application, engine: engine, options: options)
        window.show()
        return window
    }

    /// Closes the window as its close button would and waits until GTK has destroyed it: the
    /// close runs at a later iteration (gtk_window_close sends delete-event from an idle), which
    /// a busy machine delays. A window still there then (or one never realized, which
    /// gtk_window_close ignores) is destroyed, so no test inherits the one before's window.
    public static func close(_ window: BrowserWindow) {
        window.close()
        if !MainLoop.iterate(timeout: 15, until: { window.window == nil }), let widget = window.window {
            gtk_widget_destroy(widget)
            MainLoop.iterate(timeout: 5) { window.window == nil }
        }
    }
}

@MainActor
public enum UI {
    /// Iterates the main loop until `condition` holds (true) or `timeout` seconds pass (false).
    @discardableResult
    public static func wait(_ timeout: Double = 15, until condition: () -> Bool) -> Bool {
        MainLoop.iterate(timeout: timeout, until: condition)
    }

    /// Waits until the view has finished loading (and was loading, or already shows `uri`), and
    /// the chrome shows it (it is drawn at the next frame).
    @discardableResult
    public static func waitForLoad(_ window: BrowserWindow, uri: String? = nil, timeout: Double = 15) -> Bool {
        wait(timeout) {
            !window.coordinator.isLoading && !window.state.isLoading
                && (uri == nil || window.coordinator.uri == uri) && window.isRendered
        }
    }

    /// Sends a key press and release with `modifiers` to the window, as the keyboard would.
    public static func press(_ keyval: UInt32, modifiers: GdkModifierType = GdkModifierType(rawValue: 0), in window: BrowserWindow) {
        guard let widget = window.window, let gdkWindow = gtk_widget_get_window(widget) else { return }
        let display = gdk_window_get_display(gdkWindow)
        let keyboard = gdk_seat_get_keyboard(gdk_display_get_default_seat(display))
        var keys: UnsafeMutablePointer<GdkKeymapKey>?
        var count: gint = 0
        gdk_keymap_get_entries_for_keyval(gdk_keymap_get_for_display(display), keyval, &keys, &count)
        let keycode = count > 0 ? UInt16(keys![0].keycode) : 0
        g_free(keys)
        for type in [GDK_KEY_PRESS, GDK_KEY_RELEASE] {
            let event = gdk_event_new(type)!
            event.pointee.key.window = gdkWindow
            g_object_ref(UnsafeMutableRawPointer(gdkWindow))
            event.pointee.key.send_event = 1
            event.pointee.key.time = guint32(GDK_CURRENT_TIME)
            event.pointee.key.state = modifiers.rawValue
            event.pointee.key.keyval = keyval
            event.pointee.key.hardware_keycode = keycode
            gdk_event_set_device(event, keyboard)
            gtk_main_do_event(event)
            gdk_event_free(event)
        }
    }

    /// A touch-begin and touch-end on the web view, as far as GTK's own event path goes: a touch
    /// screen's events cannot be made under Xvfb, but the window's handlers see these the same way.
    /// `phases`: a tap unless told (a long press is a begin, time passing, an end), at (x, y) of
    /// the web view.
    public static func touch(_ window: BrowserWindow, x: Double = 40, y: Double = 40, phases: [GdkEventType] = [GDK_TOUCH_BEGIN, GDK_TOUCH_END]) {
        guard let view = window.webView,
              let gdkWindow = gtk_widget_get_window(UnsafeMutableRawPointer(view).assumingMemoryBound(to: GtkWidget.self)) else { return }
        let pointer = gdk_seat_get_pointer(gdk_display_get_default_seat(gdk_window_get_display(gdkWindow)))
        for type in phases {
            let event = gdk_event_new(type)!
            event.pointee.touch.window = gdkWindow
            g_object_ref(UnsafeMutableRawPointer(gdkWindow))
            event.pointee.touch.send_event = 1
            event.pointee.touch.time = guint32(GDK_CURRENT_TIME)
            event.pointee.touch.sequence = OpaquePointer(bitPattern: 0x51)
            event.pointee.touch.x = x
            event.pointee.touch.y = y
            event.pointee.touch.emulating_pointer = 1
            gdk_event_set_device(event, pointer)
            gtk_main_do_event(event)
            gdk_event_free(event)
        }
    }

    /// Sends a mouse button press to the web view (buttons 8 and 9 are Back and Forward).
    public static func click(button: UInt32, on window: BrowserWindow) {
        sendButton(GDK_BUTTON_PRESS, button: button, x: 10, y: 10, to: window)
    }

    /// Clicks the page at (x, y) with `button` (the left one unless told), as a user would: a
    /// user gesture for the page.
    public static func clickPage(x: Double, y: Double, button: UInt32 = 1, in window: BrowserWindow) {
        sendButton(GDK_BUTTON_PRESS, button: button, x: x, y: y, to: window)
        sendButton(GDK_BUTTON_RELEASE, button: button, x: x, y: y, to: window)
    }

    private static func sendButton(_ type: GdkEventType, button: UInt32, x: Double, y: Double, to window: BrowserWindow) {
        guard let view = window.webView else { return }
        let widget = UnsafeMutableRawPointer(view).assumingMemoryBound(to: GtkWidget.self)
        guard let gdkWindow = gtk_widget_get_window(widget) else { return }
        let pointer = gdk_seat_get_pointer(gdk_display_get_default_seat(gdk_window_get_display(gdkWindow)))
        let event = gdk_event_new(type)!
        event.pointee.button.window = gdkWindow
        g_object_ref(UnsafeMutableRawPointer(gdkWindow))
        event.pointee.button.send_event = 1
        event.pointee.button.time = guint32(GDK_CURRENT_TIME)
        event.pointee.button.button = button
        event.pointee.button.x = x
        event.pointee.button.y = y
        gdk_event_set_device(event, pointer)
        gtk_widget_event(widget, event)
        gdk_event_free(event)
    }

    /// Runs JavaScript in the page and returns its result as a string (nil on error or timeout).
    @discardableResult
    public static func evaluate(_ script: String, in window: BrowserWindow, timeout: Double = 10) -> String? {
        guard let view = window.webView else { return nil }
        return evaluate(script, inView: view, timeout: timeout)
    }

    /// Runs JavaScript in `view`'s page (one not shown, too) and returns its result as a string.
    @discardableResult
    public static func evaluate(_ script: String, inView view: UnsafeMutablePointer<WebKitWebView>, timeout: Double = 10) -> String? {
        let box = EvaluationBox()
        webkit_web_view_evaluate_javascript(view, script, -1, nil, nil, nil, evaluationTrampoline,
                                            Unmanaged.passRetained(box).toOpaque())
        wait(timeout) { box.done }
        return box.result
    }

    /// How many pixels of the web view, as the screen shows them now, satisfy `match` (red,
    /// green, blue); see `countScreenPixels`.
    public static func countPixels(in window: BrowserWindow, name: String, where match: (UInt8, UInt8, UInt8) -> Bool) -> Int {
        guard let view = window.webView, let toplevel = window.window, let topWindow = gtk_widget_get_window(toplevel) else { return 0 }
        let widget = UnsafeMutableRawPointer(view).assumingMemoryBound(to: GtkWidget.self)
        var x: Int32 = 0, y: Int32 = 0, originX: Int32 = 0, originY: Int32 = 0
        guard gtk_widget_translate_coordinates(widget, toplevel, 0, 0, &x, &y) != 0 else { return 0 }
        gdk_window_get_origin(topWindow, &originX, &originY)
        let area = GdkRectangle(x: originX + x, y: originY + y,
                                width: gtk_widget_get_allocated_width(widget), height: gtk_widget_get_allocated_height(widget))
        return countScreenPixels(in: area, name: name, where: match)
    }

    /// How many pixels of `area` of the screen (all of it when nil) satisfy `match`, read from
    /// the X server's root window as `import -window root` reads it: what any process's windows
    /// show there. The picture is also written to `$PORTHOLE_TEST_SHOTS/NAME.png` when that is set.
    public static func countScreenPixels(in area: GdkRectangle? = nil, name: String, where match: (UInt8, UInt8, UInt8) -> Bool) -> Int {
        _ = TestApp.application  // GTK opens the display
        guard let root = gdk_get_default_root_window() else { return 0 }
        let area = area ?? GdkRectangle(x: 0, y: 0, width: gdk_window_get_width(root), height: gdk_window_get_height(root))
        guard area.width > 0, area.height > 0,
              let pixbuf = gdk_pixbuf_get_from_window(root, area.x, area.y, area.width, area.height) else { return 0 }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        if let folder = getenv("PORTHOLE_TEST_SHOTS") {
            gdk_pixbuf_savev(pixbuf, String(cString: folder) + "/" + name + ".png", "png", nil, nil, nil)
        }
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf)), stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard let pixels = gdk_pixbuf_get_pixels(pixbuf) else { return 0 }
        var count = 0
        for row in 0..<Int(gdk_pixbuf_get_height(pixbuf)) {
            let line = pixels + row * stride
            for column in 0..<Int(gdk_pixbuf_get_width(pixbuf)) where match(line[column * channels], line[column * channels + 1], line[column * channels + 2]) {
                count += 1
            }
        }
        return count
    }

    /// Waits until GTK has run `frames` more frames of `widget`'s window, each with its layout
    /// phase: a size change queued before the call has reached the allocations by then.
    @discardableResult
    public static func waitForFrames(of widget: UnsafeMutablePointer<GtkWidget>, _ frames: Int = 2, timeout: Double = 5) -> Bool {
        guard let clock = gtk_widget_get_frame_clock(widget) else { return false }
        let target = gdk_frame_clock_get_frame_counter(clock) + frames
        return wait(timeout) {
            gdk_frame_clock_request_phase(clock, GDK_FRAME_CLOCK_PHASE_LAYOUT)
            return gdk_frame_clock_get_frame_counter(clock) >= target
        }
    }

    /// The page's visible text.
    public static func bodyText(_ window: BrowserWindow) -> String {
        evaluate("document.body ? document.body.innerText : ''", in: window) ?? ""
    }

    /// Every descendant of `widget` (popovers included when `widget` is one).
    public static func descendants(of widget: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        var result: [UnsafeMutablePointer<GtkWidget>] = [widget]
        guard g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), gtk_container_get_type()) != 0 else {
            return result
        }
        let children = gtk_container_get_children(widget.cast())
        var node = children
        while let current = node {
            if let child = current.pointee.data { result += descendants(of: child.assumingMemoryBound(to: GtkWidget.self)) }
            node = current.pointee.next
        }
        g_list_free(children)
        return result
    }

    /// Opens the window's Open menu and returns its items (label and button), in order.
    public static func openMenuItems(_ window: BrowserWindow) -> [(label: String, button: UnsafeMutablePointer<GtkWidget>)] {
        menuItems(of: window.openMenuButton)
    }

    /// Opens the menu of a GtkMenuButton and returns its items (label and button), in order.
    public static func menuItems(of button: UnsafeMutablePointer<GtkWidget>) -> [(label: String, button: UnsafeMutablePointer<GtkWidget>)] {
        gtk_toggle_button_set_active(button.cast(), 1)
        guard let popover = gtk_menu_button_get_popover(button.cast()) else { return [] }
        let popoverWidget = UnsafeMutablePointer<GtkWidget>(OpaquePointer(popover))
        guard wait(5, until: { gtk_widget_get_mapped(popoverWidget) != 0 }) else { return [] }
        return descendants(of: popoverWidget).compactMap { widget in
            let instance = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self)
            guard g_type_check_instance_is_a(instance, gtk_model_button_get_type()) != 0,
                  let label = stringProperty(UnsafeMutableRawPointer(widget), "text") else { return nil }
            return (label, widget)
        }
    }

    /// Whether `widget` is a `type` (or a subclass).
    public static func isA(_ widget: UnsafeMutablePointer<GtkWidget>, _ type: GType) -> Bool {
        g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), type) != 0
    }

    public static func typeOf(_ widget: UnsafeMutablePointer<GtkWidget>) -> GType {
        UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self).pointee.g_class.pointee.g_type
    }

    /// Every descendant of `widget`, internal children included (gtk_container_forall).
    public static func allDescendants(of widget: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        let box = DescendantBox()
        collect(widget, into: box)
        return box.widgets
    }

    private static func collect(_ widget: UnsafeMutablePointer<GtkWidget>, into box: DescendantBox) {
        box.widgets.append(widget)
        guard isA(widget, gtk_container_get_type()) else { return }
        let children = DescendantBox()
        gtk_container_forall(widget.cast(), { child, data in
            guard let child, let data else { return }
            Unmanaged<DescendantBox>.fromOpaque(data).takeUnretainedValue().widgets.append(child)
        }, Unmanaged.passUnretained(children).toOpaque())
        for child in children.widgets { collect(child, into: box) }
    }

    /// The application's toplevel windows.
    public static func toplevels() -> [UnsafeMutablePointer<GtkWidget>] {
        let list = gtk_window_list_toplevels()
        defer { g_list_free(list) }
        var result: [UnsafeMutablePointer<GtkWidget>] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data { result.append(data.assumingMemoryBound(to: GtkWidget.self)) }
            node = current.pointee.next
        }
        return result
    }

    /// The string property `name` of a GObject (e.g. a GtkModelButton's "text").
    public static func stringProperty(_ object: UnsafeMutableRawPointer, _ name: String) -> String? {
        var value = GValue()
        g_value_init(&value, GType(16 << 2))  // G_TYPE_STRING
        defer { g_value_unset(&value) }
        g_object_get_property(object.assumingMemoryBound(to: GObject.self), name, &value)
        return g_value_get_string(&value).map { String(cString: $0) }
    }
}

/// Widgets collected by gtk_container_forall's callback (used on the main thread only).
private final class DescendantBox {
    var widgets: [UnsafeMutablePointer<GtkWidget>] = []
}

@MainActor
private final class EvaluationBox {
    var done = false
    var result: String?
}

/// `void (*GAsyncReadyCallback)(GObject *source, GAsyncResult *result, gpointer user_data)`.
private let evaluationTrampoline: GAsyncReadyCallback = { source, result, data in
    nonisolated(unsafe) let source = source
    nonisolated(unsafe) let result = result
    let box = Unmanaged<EvaluationBox>.fromOpaque(data!).takeRetainedValue()
    MainActor.assumeIsolated {
        var error: UnsafeMutablePointer<GError>?
        let view = UnsafeMutableRawPointer(source!).assumingMemoryBound(to: WebKitWebView.self)
        if let value = webkit_web_view_evaluate_javascript_finish(view, result, &error) {
            if let text = jsc_value_to_string(value) {
                box.result = String(cString: text)
                g_free(text)
            }
            g_object_unref(UnsafeMutableRawPointer(value))
        }
        _ = GLibError.take(error)
        box.done = true
    }
}
