// Find in page: the find bar, made the first time it is wanted.
import CWebKitGtk
import GLibBridge
import PortholeCore

@MainActor
extension BrowserWindow {
    /// The find bar, made and put above the page on first use.
    var findBar: FindBar {
        if let madeFindBar { return madeFindBar }
        let bar = FindBar(connections: connections)
        bar.onClose = { [unowned self] in self.focusPage() }
        if let contentBox {
            gtk_box_pack_start(contentBox.cast(), bar.bar, 0, 0, 0)
            gtk_box_reorder_child(contentBox.cast(), bar.bar, 0)
            gtk_widget_show_all(bar.bar)
        }
        bar.attach(webView)
        madeFindBar = bar
        return bar
    }
}
