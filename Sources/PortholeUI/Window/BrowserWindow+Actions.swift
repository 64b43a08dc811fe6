// The window's actions (win.back, win.zoom-in, …) and their accelerators: each action is an intent for the session.
import CWebKitGtk
import GLibBridge
import PortholeCore

@MainActor
extension BrowserWindow {
    /// Accelerators for the window's actions, set once per application.
    public static let accelerators: [(action: String, keys: [String])] = [
        ("win.back", ["<Alt>Left", "Back"]),
        ("win.forward", ["<Alt>Right", "Forward"]),
        ("win.reload", ["F5", "<Control>r", "Reload"]),
        ("win.stop", ["Escape", "Stop"]),
        ("win.home", ["<Alt>Home", "HomePage"]),
        ("win.zoom-in", ["<Control>plus", "<Control>equal", "<Control>KP_Add", "ZoomIn"]),
        ("win.zoom-out", ["<Control>minus", "<Control>KP_Subtract", "ZoomOut"]),
        ("win.zoom-reset", ["<Control>0", "<Control>KP_0"]),
        ("win.find", ["<Control>f", "Find"]),
        ("win.find-next", ["<Control>g", "F3"]),
        ("win.find-previous", ["<Control><Shift>g", "<Shift>F3"]),
        ("win.print", ["<Control>p"]),
        ("win.shortcuts", ["<Control>question", "<Control>F1"]),
        ("app.quit", ["<Control>q"]),
    ]

    /// Installs the accelerators; in kiosk mode (`kiosk` given) only those of the shortcuts the
    /// kiosk keeps, and removes the others.
    public static func installAccelerators(on application: UnsafeMutablePointer<GtkApplication>, kiosk: KioskSettings? = nil) {
        let filter = kiosk.map { KioskKeyFilter(shortcuts: $0.shortcuts) }
        for (action, allKeys) in accelerators {
            let keys = filter.map { $0.keepsAccelerator(forAction: action) ? allKeys : [] } ?? allKeys
            withCStringArray(keys) { gtk_application_set_accels_for_action(application, action, $0) }
        }
    }

    /// The window's action by name (without the `win.` prefix).
    public func action(_ name: String) -> SimpleAction? { actions[name] }

    func buildActions(_ window: UnsafeMutablePointer<GtkWidget>) {
        let map = UnsafeMutableRawPointer(window)
        let plain: [(String, @MainActor () -> Void)] = [
            ("back", { [unowned self] in self.send(.intent(.back)) }),
            ("forward", { [unowned self] in self.send(.intent(.forward)) }),
            ("reload", { [unowned self] in self.send(.intent(.reload)) }),
            ("stop", { [unowned self] in self.send(.intent(.stop)) }),
            ("home", { [unowned self] in self.send(.intent(.home(fromButton: true))) }),
            ("close", { [unowned self] in self.close() }),
        ]
        let desk: [(String, @MainActor () -> Void)] = [
            ("zoom-in", { [unowned self] in self.send(.intent(.zoomIn(current: self.zoomLevel))) }),
            ("zoom-out", { [unowned self] in self.send(.intent(.zoomOut(current: self.zoomLevel))) }),
            ("zoom-reset", { [unowned self] in self.send(.intent(.zoomReset)) }),
            ("find", { [unowned self] in self.send(.intent(.find)) }),
            ("find-next", { [unowned self] in self.send(.intent(.findNext)) }),
            ("find-previous", { [unowned self] in self.send(.intent(.findPrevious)) }),
            ("print", { [unowned self] in self.send(.intent(.print)) }),
            ("shortcuts", { [unowned self] in if let window = self.window { ShortcutsWindow.present(over: window) } }),
            ("about", { [unowned self] in if let window = self.window { AboutWindow.present(over: window) } }),
        ]
        for (name, handler) in plain + desk { actions[name] = SimpleAction(name: name, in: map, handler) }
        // Its state is the current site's name: the Open and Sites menus mark that one.
        actions["open-site"] = SimpleAction(name: "open-site", stringParameterIn: map, state: "") { [unowned self] site in
            self.send(.intent(.openSite(site, fromMenu: true)))
        }
    }
}
