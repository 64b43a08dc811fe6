// What the window shows, read back from GTK: for tests and accessibility checks, not for decisions.
import CWebKitGtk
import GLibBridge
import PortholeCore

@MainActor
extension BrowserWindow {
    public var headerTitle: String? { titleLines.titleText.isEmpty ? nil : titleLines.titleText }
    public var headerSubtitle: String? { titleLines.subtitleText }
    /// The progress bar's fraction: the load's progress while loading, 0 (empty) when done.
    public var progressFraction: Double { gtk_progress_bar_get_fraction(progressBar.cast()) }
    /// The progress bar itself (shown only while a page loads).
    public var progressWidget: UnsafeMutablePointer<GtkWidget> { progressBar }
    public var openMenuButton: UnsafeMutablePointer<GtkWidget> { openButton }
    /// Kiosk mode's state (nil at a desk), through what tests may read of it.
    public var kiosk: (any KioskInspection)? { kioskMode }
    /// Kiosk mode's Sites button (nil at a desk; hidden when `[Kiosk] site-menu=` says so).
    public var kioskSitesButton: UnsafeMutablePointer<GtkWidget>? { sitesButton }
    public var headerBar: UnsafeMutablePointer<GtkWidget> { header }
    public var toolbar: UnsafeMutablePointer<GtkWidget> { bottomBar }
    public var refreshStopButton: UnsafeMutablePointer<GtkWidget> { refreshButton }
    /// The icon the refresh button shows now: `view-refresh-symbolic`, or `process-stop-symbolic`.
    public var refreshIconName: String? {
        guard let image = gtk_stack_get_visible_child(refreshIcons.cast()) else { return nil }
        var name: UnsafePointer<gchar>?
        gtk_image_get_icon_name(image.cast(), &name, nil)
        return name.map { String(cString: $0) }
    }
    /// The refusal notice's text while it shows (nil when hidden).
    public var refusalNoticeText: String? { notice.isVisible ? session.notice?.refusal?.text : nil }
    /// Whatever the notice bar says while it shows (a refusal, a reloaded page), else nil.
    public var noticeText: String? { notice.shownText }
    /// The icon beside the notice while it shows, else nil.
    public var noticeIconName: String? { notice.isVisible ? notice.iconName : nil }
    /// The action the refresh button triggers now: `win.reload`, or `win.stop` while loading.
    public var refreshButtonAction: String? {
        gtk_actionable_get_action_name(OpaquePointer(refreshButton)).map { String(cString: $0) }
    }
    /// The zoom level shown over the page while it changes, else nil.
    public var zoomIndicatorText: String? { zoomIndicator.text }
    /// The link preview's line while it shows (desk), else nil.
    public var linkPreviewText: String? { linkPreview?.text }
    /// The sign-in dialog's user and password entries while it is open (tests fill them in).
    public var signInEntries: (user: UnsafeMutablePointer<GtkWidget>, password: UnsafeMutablePointer<GtkWidget>)? {
        guard let window, let toplevels = gtk_window_list_toplevels() else { return nil }
        defer { g_list_free(toplevels) }
        for dialog in Self.widgets(toplevels) where Self.name(of: dialog) == SignInDialog.dialogName
            && gtk_window_get_transient_for(dialog.cast()) == window.cast() && gtk_widget_get_visible(dialog) != 0 {
            guard let content = gtk_dialog_get_content_area(dialog.cast()), let children = gtk_container_get_children(content.cast()) else { continue }
            defer { g_list_free(children) }
            let entries = Self.widgets(children)
            if let user = entries.first(where: { Self.name(of: $0) == SignInDialog.userEntryName }),
               let password = entries.first(where: { Self.name(of: $0) == SignInDialog.passwordEntryName }) {
                return (user, password)
            }
        }
        return nil
    }

    private static func widgets(_ list: UnsafeMutablePointer<GList>) -> [UnsafeMutablePointer<GtkWidget>] {
        var widgets: [UnsafeMutablePointer<GtkWidget>] = []
        var node: UnsafeMutablePointer<GList>? = list
        while let item = node {
            if let data = item.pointee.data { widgets.append(data.assumingMemoryBound(to: GtkWidget.self)) }
            node = item.pointee.next
        }
        return widgets
    }

    private static func name(of widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        gtk_widget_get_name(widget).map { String(cString: $0) }
    }
    /// The find bar's state, for tests and the window's own checks.
    public var isFindBarOpen: Bool { madeFindBar?.isOpen ?? false }
    public var findMatchCount: Int? { madeFindBar?.matchCount }
    public var findEntry: UnsafeMutablePointer<GtkWidget> { findBar.searchEntry }
    public var primaryMenuButton: UnsafeMutablePointer<GtkWidget> { menuButton }
    /// Whether the chrome shows the current state (no render is waiting for the next frame).
    public var isRendered: Bool { pendingRender == nil }
}
