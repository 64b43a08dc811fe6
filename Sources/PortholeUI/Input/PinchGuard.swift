// `[Browser] pinch-zoom=false`: a second finger on the touchscreen and touchpad pinches never
// reach the web view, so the page cannot be pinched out of its layout.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Watches one web view's touch events. WebKitGTK 2.50 has no setting for pinch zoom: its
/// gesture controller zooms on any two-finger touch the page leaves alone. So every touch
/// sequence that begins while another is down is dropped before WebKit's handler (GtkWidget
/// "touch-event" runs last, our handler first). One finger still taps, scrolls and drags; the
/// price is that pages see no multi-touch either, which kiosks rarely need.
@MainActor
final class PinchGuard {
    private let connections = SignalConnections()
    private var filter = SecondFingerFilter<UInt>()
    /// Touch and touchpad-pinch events kept from the web view (for tests).
    private(set) var droppedEvents = 0

    init(view: UnsafeMutablePointer<WebKitWebView>) {
        // `gboolean (*)(GtkWidget *widget, GdkEvent *event, gpointer data)`
        connections.connect(UnsafeMutableRawPointer(view), "touch-event", .pointerReturningBool { [unowned self] event in
            guard let event else { return false }
            let dropped = self.drops(event.assumingMemoryBound(to: GdkEvent.self))
            if dropped { self.droppedEvents += 1 }
            return dropped
        })
        // Touchpad pinches reach WebKit's zoom gesture through the generic event signal, which
        // GTK emits before the specific ones; returning TRUE ends the event there.
        // `gboolean (*)(GtkWidget *widget, GdkEvent *event, gpointer data)`
        connections.connect(UnsafeMutableRawPointer(view), "event", .pointerReturningBool { [unowned self] event in
            guard event?.assumingMemoryBound(to: GdkEvent.self).pointee.type == GDK_TOUCHPAD_PINCH else { return false }
            self.droppedEvents += 1
            return true
        })
    }

    private func drops(_ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        guard let pointer = gdk_event_get_event_sequence(event) else { return false }
        let sequence = UInt(bitPattern: Int(bitPattern: pointer))
        switch event.pointee.type {
        case GDK_TOUCH_BEGIN: return filter.drops(sequence, .begin)
        case GDK_TOUCH_END, GDK_TOUCH_CANCEL: return filter.drops(sequence, .end)
        default: return filter.drops(sequence, .update)
        }
    }

    func detach() {
        connections.disconnectAll()
        filter = SecondFingerFilter()
    }
}
