// Applies the visitor controls: GTK's settings for the chrome, a user style sheet for pages,
// the page zoom through the window.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Puts the session's `VisitorControls` on screen and takes them off again. GTK's settings are
/// the process's (one kiosk window), so the values found at start are put back at teardown.
///
/// - Larger text: the page zoom (through the host) and GTK's font DPI (`gtk-xft-dpi`, as GNOME's
///   own Large Text does with its text scaling factor), so the bar, menus, dialogs and the idle
///   warning grow with the page.
/// - High contrast: GTK's HighContrast theme, built into GTK 3 (no package needed), for the
///   chrome. WebKitGTK follows the GTK theme's name and tells pages `prefers-contrast: more`
///   while it is HighContrast; a user style sheet then enforces light text on black in every
///   frame for pages that ignore the media query.
@MainActor
final class VisitorAppearance {
    private let manager: ObjectOwner
    private var sheet: OpaquePointer?
    private let originalTheme: String?
    private let originalDPI: Int32
    /// What is on screen now.
    private(set) var controls = VisitorControls()
    private(set) var textScale = 1.0

    static let highContrastTheme = "HighContrast"
    /// GTK's font DPI when nothing sets one (`gtk-xft-dpi` is in 1/1024 dots per inch).
    private static let defaultDPI: Int32 = 96 * 1024

    init(manager: UnsafeMutablePointer<WebKitUserContentManager>) {
        self.manager = ObjectOwner(retaining: UnsafeMutableRawPointer(manager))
        let settings = Self.settings
        originalTheme = settings.flatMap { GObjectProperty.string($0, "gtk-theme-name") }
        originalDPI = settings.flatMap { GObjectProperty.int($0, "gtk-xft-dpi") } ?? -1
    }

    private static var settings: UnsafeMutableRawPointer? { gtk_settings_get_default().map { UnsafeMutableRawPointer($0) } }

    func apply(_ controls: VisitorControls, textScale: Double, to host: any KioskHost) {
        if let settings = Self.settings {
            if controls.highContrast != self.controls.highContrast {
                GObjectProperty.set(settings, "gtk-theme-name", controls.highContrast ? Self.highContrastTheme : (originalTheme ?? "Adwaita"))
            }
            if textScale != self.textScale {
                let base = originalDPI > 0 ? originalDPI : Self.defaultDPI
                GObjectProperty.set(settings, "gtk-xft-dpi", textScale == 1 ? originalDPI : Int32((Double(base) * textScale).rounded()))
            }
        }
        if controls.highContrast { addSheet() } else { removeSheet() }
        // Also when unchanged but on: after an idle reset the page is a new web view.
        if textScale != self.textScale || textScale != 1 { host.setTextScale(textScale) }
        self.controls = controls
        self.textScale = textScale
        Log.info("visitor controls: large text \(controls.largeText), high contrast \(controls.highContrast)",
                 fields: ["PORTHOLE_EVENT": "visitor-controls"])
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

    /// Puts GTK's settings back as they were found and takes the style sheet out.
    func restore(_ host: any KioskHost) {
        apply(VisitorControls(), textScale: 1, to: host)
        manager.release()
    }
}

/// Reading and setting one GObject property of a simple type (`g_object_get` is variadic).
@MainActor
enum GObjectProperty {
    private static let stringType = GType(16 << G_TYPE_FUNDAMENTAL_SHIFT)  // G_TYPE_STRING
    private static let intType = GType(6 << G_TYPE_FUNDAMENTAL_SHIFT)  // G_TYPE_INT

    static func string(_ object: UnsafeMutableRawPointer, _ name: String) -> String? {
        var value = GValue()
        g_value_init(&value, stringType)
        defer { g_value_unset(&value) }
        g_object_get_property(object.assumingMemoryBound(to: GObject.self), name, &value)
        return g_value_get_string(&value).map { String(cString: $0) }
    }

    static func int(_ object: UnsafeMutableRawPointer, _ name: String) -> Int32 {
        var value = GValue()
        g_value_init(&value, intType)
        defer { g_value_unset(&value) }
        g_object_get_property(object.assumingMemoryBound(to: GObject.self), name, &value)
        return g_value_get_int(&value)
    }

    static func set(_ object: UnsafeMutableRawPointer, _ name: String, _ text: String) {
        var value = GValue()
        g_value_init(&value, stringType)
        defer { g_value_unset(&value) }
        g_value_set_string(&value, text)
        g_object_set_property(object.assumingMemoryBound(to: GObject.self), name, &value)
    }

    static func set(_ object: UnsafeMutableRawPointer, _ name: String, _ number: Int32) {
        var value = GValue()
        g_value_init(&value, intType)
        defer { g_value_unset(&value) }
        g_value_set_int(&value, number)
        g_object_set_property(object.assumingMemoryBound(to: GObject.self), name, &value)
    }
}
