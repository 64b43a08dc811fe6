// The one user style sheet that hides the PDF viewer's dead buttons, kept in the user content
// manager all web views share.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Owns the PDF viewer's style sheet (see `PDFViewerStyle`) in one user content manager. The
/// manager outlives every web view and visitor session, so the sheet is added once and replaced
/// only when printing is turned on or off: adding it for each new web view piled up one more
/// copy in the manager (and in every web process it fed) at each kiosk idle reset.
@MainActor
public final class PDFViewerStyleSheet {
    private let manager: ObjectOwner
    private var sheet: OpaquePointer?
    /// Whether the sheet in place keeps the Print buttons; nil before the first `apply`.
    public private(set) var printing: Bool?
    /// How many style sheets this object has in the manager now: 0 before `apply`, then 1.
    public private(set) var sheetsInManager = 0

    init(manager: UnsafeMutablePointer<WebKitUserContentManager>) {
        self.manager = ObjectOwner(retaining: UnsafeMutableRawPointer(manager))
    }

    /// Puts the sheet for `printing` in the manager, replacing one for the other setting.
    public func apply(printing: Bool) {
        guard printing != self.printing, let manager = manager.typed(WebKitUserContentManager.self) else { return }
        remove()
        let css = PDFViewerStyle.styleSheet(printing: printing)
        PDFViewerStyle.viewerURLPattern.withCString { pattern in
            var allow: [UnsafePointer<gchar>?] = [pattern, nil]
            sheet = webkit_user_style_sheet_new(css, WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES, WEBKIT_USER_STYLE_LEVEL_USER, &allow, nil)
        }
        webkit_user_content_manager_add_style_sheet(manager, sheet)
        sheetsInManager += 1
        self.printing = printing
    }

    private func remove() {
        guard let sheet, let manager = manager.typed(WebKitUserContentManager.self) else { return }
        webkit_user_content_manager_remove_style_sheet(manager, sheet)
        webkit_user_style_sheet_unref(sheet)
        self.sheet = nil
        sheetsInManager -= 1
        printing = nil
    }

    isolated deinit {
        remove()
        manager.release()
    }
}
