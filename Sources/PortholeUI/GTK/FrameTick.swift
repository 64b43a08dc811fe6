// Work done once, at the next frame GTK draws a widget (gtk_widget_add_tick_callback).
import CWebKitGtk
import GLibBridge

/// Box for a tick callback, released by its GDestroyNotify.
private final class TickBox: Sendable {
    let work: @MainActor () -> Void
    init(_ work: @escaping @MainActor () -> Void) { self.work = work }
}

/// `gboolean (*GtkTickCallback)(GtkWidget *widget, GdkFrameClock *frame_clock, gpointer user_data)`.
private let tickTrampoline: GtkTickCallback = { _, _, data in
    let box = Unmanaged<TickBox>.fromOpaque(data!).takeUnretainedValue()
    MainActor.assumeIsolated { box.work() }
    return 0  // G_SOURCE_REMOVE: once
}

private let releaseTickBox: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<TickBox>.fromOpaque(data).release()
}

/// Runs `work` once, just before GTK lays out and paints `widget`'s next frame; `cancel()` drops
/// it. Changes made then reach the screen in that frame, and changes asked for more often than
/// frames are drawn are made once per frame.
@MainActor
final class FrameTick {
    private let widget: UnsafeMutablePointer<GtkWidget>
    private let id: guint

    init(_ widget: UnsafeMutablePointer<GtkWidget>, _ work: @escaping @MainActor () -> Void) {
        self.widget = widget
        id = gtk_widget_add_tick_callback(widget, tickTrampoline, Unmanaged.passRetained(TickBox(work)).toOpaque(), releaseTickBox)
    }

    /// Drops the work if it has not run. Tick callback IDs count up per widget and are never
    /// reused, so removing one that already ran removes nothing; the caller cancels before the
    /// widget goes.
    func cancel() {
        gtk_widget_remove_tick_callback(widget, id)
    }
}
