// Applies the visitor controls: GTK's settings for the chrome, a user style sheet for pages,
// the page zoom through the window.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Puts the session's `VisitorControls` on screen and takes them off again. GTK's settings are
/// the process's (one kiosk window), so the values found at start are put back at teardown.
///
/// - Larger text: the page zoom (through the host), and the window's text through a style class
///   on the toplevel that sizes every label and entry in it (the bar, its menus, dialogs). Not
///   GTK's font DPI (`gtk-xft-dpi`, what GNOME's Large Text sets): WebKitGTK follows it for page
///   text too, which on top of the page zoom made the page's text 2.25 times larger.
/// - High contrast: GTK's HighContrast theme, built into GTK 3 (no package needed), for the
///   chrome. WebKitGTK follows the GTK theme's name and tells pages `prefers-contrast: more`
///   while it is HighContrast; a user style sheet then enforces light text on black in every
///   frame for pages that ignore the media query.
@MainActor
final class VisitorAppearance {
    private let manager: ObjectOwner
    private var sheet: OpaquePointer?
    private let originalTheme: String?
    /// The screen's style provider for the large text class, made the first time it is wanted.
    private var textStyle: ObjectOwner?
    /// The window's font size in pixels before Larger text.
    private var baseFontSize: Double?
    /// What is on screen now.
    private(set) var controls = VisitorControls()
    private(set) var textScale = 1.0

    static let highContrastTheme = "HighContrast"
    static let largeTextClass = "porthole-large-text"

    init(manager: UnsafeMutablePointer<WebKitUserContentManager>) {
        self.manager = ObjectOwner(retaining: UnsafeMutableRawPointer(manager))
        let settings = Self.settings
        originalTheme = settings.flatMap { GObjectProperty.string($0, "gtk-theme-name") }
    }

    private static var settings: UnsafeMutableRawPointer? { gtk_settings_get_default().map { UnsafeMutableRawPointer($0) } }

    func apply(_ controls: VisitorControls, textScale: Double, to host: any KioskHost) {
        if let settings = Self.settings {
            if controls.highContrast != self.controls.highContrast {
                GObjectProperty.set(settings, "gtk-theme-name", controls.highContrast ? Self.highContrastTheme : (originalTheme ?? "Adwaita"))
            }
        }
        if textScale != self.textScale { scaleChrome(textScale, in: host) }
        if controls.highContrast { addSheet() } else { removeSheet() }
        // Also when unchanged but on: after an idle reset the page is a new web view.
        if textScale != self.textScale || textScale != 1 { host.setTextScale(textScale) }
        self.controls = controls
        self.textScale = textScale
        Log.info("visitor controls: large text \(controls.largeText), high contrast \(controls.highContrast)",
                 fields: ["PORTHOLE_EVENT": "visitor-controls"])
    }

    /// The toplevel's labels and entries `scale` times larger (back to normal at 1).
    private func scaleChrome(_ scale: Double, in host: any KioskHost) {
        guard let window = host.window, let screen = gdk_screen_get_default() else { return }
        let context = gtk_widget_get_style_context(window)
        if scale == 1 {
            gtk_style_context_remove_class(context, Self.largeTextClass)
            return
        }
        if textStyle == nil {
            let css = ObjectOwner(adopting: UnsafeMutableRawPointer(gtk_css_provider_new()))
            gtk_style_context_add_provider_for_screen(screen, OpaquePointer(css.pointer), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
            textStyle = css
        }
        // On the text itself, in pixels from the window's size without the class: a relative size
        // (em, %) on the toplevel did not come out as that multiple in its labels (measured).
        if baseFontSize == nil {
            var value = GValue()
            gtk_style_context_get_property(context, "font-size", gtk_style_context_get_state(context), &value)
            baseFontSize = g_value_get_double(&value)
            g_value_unset(&value)
        }
        let pixels = Int(((baseFontSize ?? 13.3) * scale).rounded())
        gtk_css_provider_load_from_data(textStyle?.typed(), "window.\(Self.largeTextClass) label, window.\(Self.largeTextClass) entry { font-size: \(pixels)px; }", -1, nil)
        gtk_style_context_add_class(context, Self.largeTextClass)
    }

    /// Whether the pages' contrast style sheet is in the user content manager.
    var hasContrastSheet: Bool { sheet != nil }

    private func addSheet() {
        guard sheet == nil, let manager = manager.typed(WebKitUserContentManager.self) else { return }
        sheet = webkit_user_style_sheet_new(VisitorControls.contrastStyleSheet, WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES,
                                            WEBKIT_USER_STYLE_LEVEL_USER, nil, nil)
        webkit_user_content_manager_add_style_sheet(manager, sheet)
    }

    private func removeSheet() {
        guard let sheet, let manager = manager.typed(WebKitUserContentManager.self) else { return }
        webkit_user_content_manager_remove_style_sheet(manager, sheet)
        webkit_user_style_sheet_unref(sheet)
        self.sheet = nil
    }

    /// Puts GTK's settings back as they were found and takes the style sheets out.
    func restore(_ host: any KioskHost) {
        apply(VisitorControls(), textScale: 1, to: host)
        if let textStyle, let screen = gdk_screen_get_default() {
            gtk_style_context_remove_provider_for_screen(screen, OpaquePointer(textStyle.pointer))
            textStyle.release()
        }
        textStyle = nil
        manager.release()
    }
}

/// Reading and setting one GObject property of a simple type (`g_object_get` is variadic).
@MainActor
enum GObjectProperty {
    private static let stringType = GType(16 << G_TYPE_FUNDAMENTAL_SHIFT)  // G_TYPE_STRING

    static func string(_ object: UnsafeMutableRawPointer, _ name: String) -> String? {
        var value = GValue()
        g_value_init(&value, stringType)
        defer { g_value_unset(&value) }
        g_object_get_property(object.assumingMemoryBound(to: GObject.self), name, &value)
        return g_value_get_string(&value).map { String(cString: $0) }
    }

    static func set(_ object: UnsafeMutableRawPointer, _ name: String, _ text: String) {
        var value = GValue()
        g_value_init(&value, stringType)
        defer { g_value_unset(&value) }
        g_value_set_string(&value, text)
        g_object_set_property(object.assumingMemoryBound(to: GObject.self), name, &value)
    }
}
