// The on-screen keyboard: GTK buttons below the web view that slide up when a field in the page
// gets focus, and type into it.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Made by a BrowserWindow whose keyboard mode is not off, and owned by it; its `widget` sits
/// between the web view and the bottom bar, so the view shrinks while the keyboard shows.
/// It translates the focus script's reports, the device list and button presses into
/// KeyboardState's inputs, and its state into GTK: the decisions are Core's.
@MainActor
public final class OnScreenKeyboard {
    public let settings: KeyboardSettings
    private var state: KeyboardState
    private let devices: InputDeviceSource
    private let revealer: ObjectOwner
    private let grid: UnsafeMutablePointer<GtkWidget>
    private var watcher: FocusWatcher?
    private var keys: [(button: UnsafeMutablePointer<GtkWidget>, action: KeyAction)] = []
    private let keyConnections = SignalConnections()
    private var appliedLayout: KeyboardLayout?
    private var appliedShift: KeyboardState.Shift?
    private var appliedLanguage: KeyboardLanguage?
    private static var styled = false

    /// Told each key's accessible name as it is pressed (the read-aloud mode says it).
    var onKeyPressed: (@MainActor (String) -> Void)?

    /// Whether the keyboard comes up for fields now (`keyboard=true`, or `auto` with a touchscreen).
    public private(set) var isOffered: Bool

    /// `settings.mode` must be resolved (not nil); `devices` answers `auto`.
    public init(settings: KeyboardSettings, devices: InputDeviceSource? = nil) {
        self.settings = settings
        self.devices = devices ?? SeatInputDevices()
        state = KeyboardState(languages: settings.languages)
        let mode = settings.mode ?? .off
        isOffered = KeyboardSettings.isOffered(mode, devices: self.devices.devices)
        let revealer = gtk_revealer_new()!
        self.revealer = ObjectOwner(sinking: UnsafeMutableRawPointer(revealer))
        gtk_revealer_set_transition_type(revealer.cast(), GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP)
        grid = gtk_grid_new()
        gtk_grid_set_row_homogeneous(grid.cast(), 1)
        gtk_grid_set_column_homogeneous(grid.cast(), 1)
        gtk_grid_set_row_spacing(grid.cast(), 4)
        gtk_grid_set_column_spacing(grid.cast(), 4)
        gtk_container_set_border_width(grid.cast(), 6)
        gtk_style_context_add_class(gtk_widget_get_style_context(grid), "porthole-keyboard")
        gtk_container_add(revealer.cast(), grid)
        gtk_widget_show(grid)
        Self.installStyle()
        self.devices.onChange = { [weak self] in self?.devicesChanged() }
        Log.info("on-screen keyboard \(mode.rawValue), \(isOffered ? "offered" : "not offered")",
                 fields: ["PORTHOLE_EVENT": "keyboard", "PORTHOLE_KEYBOARD_LAYOUTS": settings.languages.map(\.rawValue).joined(separator: ";")])
    }

    /// The widget to pack below the web view (a GtkRevealer).
    public var widget: UnsafeMutablePointer<GtkWidget> { revealer.typed()! }

    /// Whether the keyboard is up (or sliding up).
    public var isVisible: Bool { gtk_revealer_get_reveal_child(revealer.typed()) != 0 }
    /// Whether the keyboard has finished sliding up.
    public var isFullyShown: Bool { gtk_revealer_get_child_revealed(revealer.typed()) != 0 }
    /// The shape shown (nil while hidden), the language, Shift and Caps.
    public var current: KeyboardState { state }

    /// The button for the key that does `action` in the layout shown.
    public func button(for action: KeyAction) -> UnsafeMutablePointer<GtkWidget>? {
        keys.first { $0.action == action }?.button
    }

    /// Watches `view` for focused fields: the window's first web view, and each new one.
    public func attach(to view: UnsafeMutablePointer<WebKitWebView>) {
        watcher?.detach()
        watcher = FocusWatcher(view: view) { [weak self] field in self?.focusChanged(field) }
    }

    /// A new visitor session in `view`: hidden, first language, no Shift or Caps, nothing kept.
    public func startNewSession(in view: UnsafeMutablePointer<WebKitWebView>) {
        state.reset()
        render()
        attach(to: view)
    }

    func teardown() {
        watcher?.detach()
        watcher = nil
        devices.stop()
        keyConnections.disconnectAll()
        keys.removeAll()
        revealer.release()
    }

    // MARK: Inputs

    private func focusChanged(_ field: FieldFocus?) {
        state.focus(field)
        render()
    }

    private func devicesChanged() {
        let offered = KeyboardSettings.isOffered(settings.mode ?? .off, devices: devices.devices)
        guard offered != isOffered else { return }
        isOffered = offered
        Log.info("on-screen keyboard \(offered ? "offered" : "not offered"): input devices changed", fields: ["PORTHOLE_EVENT": "keyboard"])
        render()
    }

    private func pressed(_ action: KeyAction) {
        onKeyPressed?(state.face(action).accessibleName)
        if let output = state.press(action), let view = watcher?.webView {
            KeySender.send(output, to: view)
        }
        render()
    }

    // MARK: State → GTK

    private func render() {
        guard let revealer = revealer.typed(GtkRevealer.self) else { return }
        let show = isOffered && state.isVisible
        if show, let layout = state.layout {
            if layout != appliedLayout { build(layout) }
            if state.shift != appliedShift || state.language != appliedLanguage { relabel() }
            setHeight()
        }
        if (gtk_revealer_get_reveal_child(revealer) != 0) != show {
            gtk_revealer_set_reveal_child(revealer, show ? 1 : 0)
        }
    }

    /// The keyboard's height: `keyboard-height` of the monitor the window is on.
    private func setHeight() {
        let widget = self.widget
        var screenHeight: Int32 = 768
        if let display = gdk_display_get_default() {
            let window = gtk_widget_get_window(gtk_widget_get_toplevel(widget))
            if let monitor = window.flatMap({ gdk_display_get_monitor_at_window(display, $0) }) ?? gdk_display_get_primary_monitor(display) {
                var area = GdkRectangle()
                gdk_monitor_get_geometry(monitor, &area)
                screenHeight = area.height
            }
        }
        gtk_widget_set_size_request(grid, -1, Int32(Double(screenHeight) * settings.height))
    }

    /// Builds the rows: a homogeneous grid in half-key columns, each row centred.
    private func build(_ layout: KeyboardLayout) {
        keyConnections.disconnectAll()
        for key in keys { gtk_widget_destroy(key.button) }
        keys.removeAll()
        let halves = layout.rows.map { row in row.map { Int(($0.width * 2).rounded()) } }
        let widest = halves.map { $0.reduce(0, +) }.max() ?? 0
        for (rowIndex, row) in layout.rows.enumerated() {
            var column = (widest - halves[rowIndex].reduce(0, +)) / 2
            for (keyIndex, key) in row.enumerated() {
                let button = makeButton(key.action)
                gtk_grid_attach(grid.cast(), button, Int32(column), Int32(rowIndex), Int32(halves[rowIndex][keyIndex]), 1)
                gtk_widget_show(button)
                keys.append((button, key.action))
                column += halves[rowIndex][keyIndex]
            }
        }
        appliedLayout = layout
        appliedShift = nil
    }

    private func makeButton(_ action: KeyAction) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_button_new_with_label("")!
        // Keys never take focus: the page's field keeps it, so typing reaches it and it does not blur.
        gtk_widget_set_can_focus(button, 0)
        gtk_widget_set_focus_on_click(button, 0)
        gtk_widget_set_hexpand(button, 1)
        keyConnections.connect(UnsafeMutableRawPointer(button), "clicked", .plain { [weak self] in self?.pressed(action) })
        return button
    }

    /// Puts each key's label, accessible name and tooltip for the current Shift and language.
    private func relabel() {
        for (button, action) in keys {
            let face = state.face(action)
            gtk_button_set_label(button.cast(), face.label)
            if face.mayShorten, let label = gtk_bin_get_child(button.cast()),
               g_type_check_instance_is_a(UnsafeMutableRawPointer(label).assumingMemoryBound(to: GTypeInstance.self), gtk_label_get_type()) != 0 {
                // The space bar's language name gives way on a narrow screen instead of widening the row.
                gtk_label_set_ellipsize(label.cast(), PANGO_ELLIPSIZE_END)
            }
            if let accessible = gtk_widget_get_accessible(button) { atk_object_set_name(accessible, face.accessibleName) }
            gtk_widget_set_tooltip_text(button, face.accessibleName != face.label ? face.accessibleName : nil)
            let context = gtk_widget_get_style_context(button)
            if face.isOn { gtk_style_context_add_class(context, Self.onClass) } else { gtk_style_context_remove_class(context, Self.onClass) }
        }
        appliedShift = state.shift
        appliedLanguage = state.language
    }

    /// The style class of a key that is on (Caps Lock locked, Shift for the next letter).
    public static let onClass = "porthole-key-on"

    /// Key sizes for fingers, once per screen.
    private static func installStyle() {
        guard !styled, let screen = gdk_screen_get_default() else { return }
        styled = true
        let css = gtk_css_provider_new()!
        gtk_css_provider_load_from_data(css, """
            .porthole-keyboard { background-color: #d6d9dc; }
            .porthole-keyboard button { font-size: 18pt; min-height: 0; min-width: 0; padding: 0; }
            .porthole-keyboard button.porthole-key-on { background-image: none; background-color: #1c71d8; color: #ffffff;
                border-color: #0b3f80; box-shadow: inset 0 -4px #ffd60a; }
            """, -1, nil)
        gtk_style_context_add_provider_for_screen(screen, OpaquePointer(css), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(UnsafeMutableRawPointer(css))
    }
}
