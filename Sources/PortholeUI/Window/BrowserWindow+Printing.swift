// Printing with GTK's print dialog.
import CWebKitGtk
import GLibBridge
import PortholeCore

@MainActor
extension BrowserWindow {
    /// Prints the page with GTK's print dialog (the session asks only where the rules allow it).
    func print() {
        guard let webView, let window else { return }
        let operation = webkit_print_operation_new(webView)
        webkit_print_operation_run_dialog(operation, window.cast())
        g_object_unref(UnsafeMutableRawPointer(operation))
    }
}
