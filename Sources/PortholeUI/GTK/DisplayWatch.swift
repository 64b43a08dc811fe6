// Says why Porthole ends when its display goes away (an X server or Wayland compositor that
// stopped), in the log, before GDK or Xlib end the process with a line of their own.
import CGLib
import CWebKitGtk
import Glibc
import GLibBridge

public enum DisplayWatch {
    /// Watches the default display's connection: when it hangs up, logs a critical
    /// `display-lost` entry and exits with status 1 (a service manager restarts the browser, as
    /// `porthole-kiosk.service` does). Call once, after GTK's initialisation.
    @MainActor public static func start() {
        guard let display = gdk_display_get_default() else { return }
        name = gdk_display_get_name(display).map { String(cString: $0) } ?? "?"
        // Xlib notices first when a request is written to a closed connection: its handler,
        // instead of Xlib's own "X connection to :0 broken".
        if porthole_display_is_x11(display) != 0 {
            _ = XSetIOErrorHandler { _ in DisplayWatch.lost() }
        }
        let fd = porthole_display_fd(display)
        guard fd >= 0 else { return }
        // Before GDK's own event source (default priority), which would end the process first.
        g_unix_fd_add_full(G_PRIORITY_HIGH, fd, GIOCondition(rawValue: G_IO_HUP.rawValue | G_IO_ERR.rawValue), { _, _, _ in
            DisplayWatch.lost()
        }, nil, nil)
    }

    /// The display's name, for the log (set once on the main thread, read when it is lost).
    nonisolated(unsafe) private static var name = ""

    private static func lost() -> Never {
        Log.write(.critical, "lost the display \(name): exiting with status 1", fields: ["PORTHOLE_EVENT": "display-lost", "PORTHOLE_DISPLAY": name])
        _exit(1)
    }
}
