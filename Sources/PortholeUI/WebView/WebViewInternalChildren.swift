// Internal children WebKitGTK gives a web view and does not take back: released when the view goes.
import CWebKitGtk

enum WebViewInternalChildren {
    /// WebKitGTK 2.50 (GTK 3) makes a GtkTextView for each web view, to translate key bindings
    /// into editing commands, and parents it to the view with gtk_widget_set_parent; nothing
    /// unparents it, so the parent's reference keeps it, its buffer, layout and style contexts
    /// alive after the view is finalized: about 11 KB of the UI process's heap for every web
    /// view (every kiosk idle reset), measured with a plain C program as well. Unparenting it
    /// before the view is dropped leaves WebKit's own reference, released with the view.
    /// Harmless where WebKit unparents it itself (GTK ignores unparenting a widget twice).
    @MainActor
    static func release(of view: UnsafeMutablePointer<GtkWidget>) {
        let found = Found()
        gtk_container_forall(view.cast(), { child, data in
            guard let child, let data,
                  g_type_check_instance_is_a(UnsafeMutableRawPointer(child).assumingMemoryBound(to: GTypeInstance.self),
                                             gtk_text_view_get_type()) != 0 else { return }
            Unmanaged<Found>.fromOpaque(data).takeUnretainedValue().textViews.append(child)
        }, Unmanaged.passUnretained(found).toOpaque())
        // Unparented after the walk: a container's children must not change while it is walked.
        for textView in found.textViews where gtk_widget_get_parent(textView) == view {
            gtk_widget_unparent(textView)
        }
    }

    /// What the walk found (passed through gtk_container_forall's data pointer).
    private final class Found {
        var textViews: [UnsafeMutablePointer<GtkWidget>] = []
    }
}
