// Kiosk mode for one BrowserWindow: full screen, no way out, visitor sessions, cursor and screen.
import CWebKitGtk
import Dispatch
import GLibBridge
import PortholeCore

/// Made by a BrowserWindow whose options carry `[Kiosk]` settings, and owned by it. It only
/// translates GTK events into Core's inputs (KioskKeyFilter, IdleSession, ExitPinGate) and their
/// answers into GTK calls. What pages may do (menus, printing, downloads, permissions) is the
/// web view's BrowsingRules; this object is about the window and the people in front of it.
@MainActor
public final class KioskController {
    public let settings: KioskSettings
    private weak var browser: BrowserWindow?
    private let filter: KioskKeyFilter
    private let connections = SignalConnections()
    private var inputHook: EmissionHook?
    private var idle: IdleSession
    private var idleTicker: ScheduledSource?
    private let warning: IdleWarning
    private var cursorTimer: ScheduledSource?
    private var reloadTimer: ScheduledSource?
    private var inhibitCookie: guint = 0
    private var gate: ExitPinGate?
    private var exitDialog: ExitPinDialog?
    private var isCheckingPin = false
    /// Counts the lockout down in the exit dialog, once a second.
    private var lockoutTicker: ScheduledSource?
    private var exiting = false

    /// The last key presses swallowed, in order (the log has them all): at most 32, so a kiosk
    /// that runs for months does not keep every key a visitor pressed.
    public private(set) var swallowedKeys: [KeyChord] = []
    /// Close requests refused (window manager close, Alt+F4).
    public private(set) var refusedCloses = 0
    /// Visitor sessions started after an idle timeout.
    public private(set) var sessionsStarted = 0
    public private(set) var isCursorHidden = false

    init(browser: BrowserWindow, settings: KioskSettings) {
        self.browser = browser
        self.settings = settings
        filter = KioskKeyFilter(shortcuts: settings.shortcuts, exitChord: settings.exitChord.flatMap(KeyChord.init(accelerator:)))
        idle = IdleSession(timeout: settings.idleTimeout, warning: settings.idleWarning)
        gate = settings.exitPinHash.map { ExitPinGate(hash: $0) }
        warning = IdleWarning(in: browser.windowOverlay)
        guard let window = browser.window else { return }
        let object = UnsafeMutableRawPointer(window)
        // Runs before GtkWindow's own handler, which activates accelerators, then the page.
        connections.connect(object, "key-press-event", .pointerReturningBool { [unowned self] event in
            guard let event else { return false }
            return self.keyPressed(event.assumingMemoryBound(to: GdkEvent.self))
        })
        // GtkWidget::event is emitted on the widget an event is for before any handler runs, so
        // the hook sees input on the page although the page handles it. Events for the exit
        // dialog count too: an admin typing the PIN is not idle.
        inputHook = EmissionHook(type: gtk_widget_get_type(), signal: "event") { [weak self] widget, arguments in
            guard let self, let widget, let event = arguments.first ?? nil else { return }
            let toplevel = gtk_widget_get_toplevel(widget.assumingMemoryBound(to: GtkWidget.self))
            guard let toplevel, toplevel == window || self.exitDialog?.isWindow(toplevel) == true else { return }
            self.observe(event.assumingMemoryBound(to: GdkEvent.self))
        }
        connections.connect(object, "window-state-event", .pointerReturningBool { [unowned self] event in
            guard let event else { return false }
            self.windowStateChanged(event.assumingMemoryBound(to: GdkEventWindowState.self).pointee)
            return false
        })
        connections.connect(object, "map", .plain { [unowned self] in self.inhibitIdle() })
        connections.connect(object, "unmap", .plain { [unowned self] in self.uninhibitIdle() })
        if settings.reloadEvery > 0 {
            reloadTimer = MainLoop.every(milliseconds: UInt32(min(settings.reloadEvery, 86_400)) * 1000) { [weak self] in
                guard let coordinator = self?.browser?.coordinator else { return false }
                if !coordinator.isLoading { coordinator.reload() }
                return true
            }
        }
        restartCursorTimer()
        Log.info("kiosk mode", fields: ["PORTHOLE_EVENT": "kiosk-start",
                                        "PORTHOLE_SHORTCUTS": settings.shortcuts.map(\.rawValue).joined(separator: ";")])
    }

    private static func now() -> Double { Double(g_get_monotonic_time()) / 1_000_000 }

    // MARK: The window

    /// Called before the window is first shown: full screen from the first frame. The default
    /// size is the monitor's, so even without a window manager (a bare X server) it fills it.
    func prepareToShow() {
        guard let window = browser?.window else { return }
        if let display = gdk_display_get_default(),
           let monitor = gdk_display_get_primary_monitor(display) ?? gdk_display_get_monitor(display, 0) {
            var area = GdkRectangle()
            gdk_monitor_get_geometry(monitor, &area)
            gtk_window_set_default_size(window.cast(), area.width, area.height)
            gtk_window_move(window.cast(), area.x, area.y)
        }
        gtk_window_fullscreen(window.cast())
    }

    /// Whether the window refuses to close; each refusal is counted and logged.
    func refusesClose() -> Bool {
        guard !exiting else { return false }
        refusedCloses += 1
        Log.info("close refused in kiosk mode", fields: ["PORTHOLE_EVENT": "close-refused"])
        return true
    }

    /// A page leaving its own full screen (WebKit then un-fullscreens the window), a window
    /// manager's F11: whatever takes the window out of full screen, it goes straight back.
    private func windowStateChanged(_ event: GdkEventWindowState) {
        let fullscreen = GDK_WINDOW_STATE_FULLSCREEN.rawValue
        guard event.changed_mask.rawValue & fullscreen != 0, event.new_window_state.rawValue & fullscreen == 0,
              !exiting, let window = browser?.window else { return }
        Log.info("back to full screen", fields: ["PORTHOLE_EVENT": "refullscreen"])
        gtk_window_fullscreen(window.cast())
    }

    public var isFullscreen: Bool {
        guard let window = browser?.window, let gdkWindow = gtk_widget_get_window(window) else { return false }
        return gdk_window_get_state(gdkWindow).rawValue & GDK_WINDOW_STATE_FULLSCREEN.rawValue != 0
    }

    /// Keeps the screen on while a page shows (GTK asks the session: GNOME's session manager or
    /// the desktop portal; without either it can do nothing, see "Kiosk mode" in the README).
    private func inhibitIdle() {
        guard inhibitCookie == 0, let window = browser?.window, let application = gtk_window_get_application(window.cast()) else { return }
        // TRANSLATORS: why the screen does not blank, as the desktop may show it.
        inhibitCookie = gtk_application_inhibit(application, window.cast(), GTK_APPLICATION_INHIBIT_IDLE, tr("Showing a kiosk page"))
        Log.debug("screen blanking inhibited: \(inhibitCookie != 0)")
    }

    private func uninhibitIdle() {
        guard inhibitCookie != 0, let window = browser?.window, let application = gtk_window_get_application(window.cast()) else { return }
        gtk_application_uninhibit(application, inhibitCookie)
        inhibitCookie = 0
    }

    // MARK: Keys

    private func keyPressed(_ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        let key = event.pointee.key
        guard let name = gdk_keyval_name(gdk_keyval_to_lower(key.keyval)) else { return false }
        let chord = KeyChord(String(cString: name), Self.modifiers(key.state))
        switch filter.decide(chord) {
        case .pass:
            return false
        case .exitChord:
            openExitDialog()
            return true
        case .swallow(let why):
            swallowedKeys.append(chord)
            if swallowedKeys.count > 32 { swallowedKeys.removeFirst() }
            Log.debug("key refused in kiosk mode: \(chord) (\(why))", fields: ["PORTHOLE_EVENT": "key-refused"])
            return true
        }
    }

    private static func modifiers(_ state: guint) -> KeyChord.Modifiers {
        var modifiers: KeyChord.Modifiers = []
        if state & GDK_CONTROL_MASK.rawValue != 0 { modifiers.insert(.control) }
        if state & GDK_MOD1_MASK.rawValue != 0 { modifiers.insert(.alt) }
        if state & GDK_SHIFT_MASK.rawValue != 0 { modifiers.insert(.shift) }
        if state & (GDK_SUPER_MASK.rawValue | GDK_MOD4_MASK.rawValue) != 0 { modifiers.insert(.superKey) }
        return modifiers
    }

    // MARK: Input and the visitor session

    private func observe(_ event: UnsafeMutablePointer<GdkEvent>) {
        let type = event.pointee.type
        switch type {
        case GDK_KEY_PRESS, GDK_BUTTON_PRESS, GDK_SCROLL, GDK_TOUCH_BEGIN, GDK_TOUCH_UPDATE,
             GDK_TOUCHPAD_SWIPE, GDK_TOUCHPAD_PINCH, GDK_MOTION_NOTIFY:
            apply(idle.input(at: Self.now()))
            // A timer already pending fires early at worst and schedules the next one itself.
            if idleTicker?.isActive != true { scheduleIdleTick() }
        default:
            return
        }
        if type == GDK_TOUCH_BEGIN, !isCursorHidden { applyCursor(hidden: true) }  // a finger needs no arrow
        if type == GDK_MOTION_NOTIFY || type == GDK_BUTTON_PRESS || type == GDK_SCROLL {
            // A touchscreen moves the pointer too; only a real pointer brings the cursor back.
            let device = gdk_event_get_source_device(event)
            if device == nil || gdk_device_get_source(device) != GDK_SOURCE_TOUCHSCREEN {
                showCursor()
                restartCursorTimer()
            }
        }
    }

    /// One timeout at the moment the idle clock next has something to do; none while the
    /// session is fresh, so an untouched kiosk is not woken up at all.
    private func scheduleIdleTick() {
        idleTicker?.cancel()
        idleTicker = nil
        let now = Self.now()
        guard let due = idle.nextTick(after: now) else { return }
        idleTicker = MainLoop.after(milliseconds: Countdown.milliseconds(due - now)) { [weak self] in
            guard let self else { return }
            self.idleTicker = nil
            self.apply(self.idle.tick(at: Self.now()))
            self.scheduleIdleTick()
        }
    }

    private func apply(_ action: IdleSession.Action) {
        switch action {
        case .none: break
        case .showWarning(let seconds):
            Log.info("idle: warning for \(seconds) s", fields: ["PORTHOLE_EVENT": "idle-warning"])
            warning.show(secondsLeft: seconds)
        case .updateWarning(let seconds): warning.update(secondsLeft: seconds)
        case .hideWarning:
            Log.info("idle warning cancelled by input", fields: ["PORTHOLE_EVENT": "idle-cancelled"])
            warning.hide()
        case .startNewSession:
            warning.hide()
            closeExitDialog()
            sessionsStarted += 1
            browser?.startNewSession()
            if isCursorHidden { MainLoop.idle { [weak self] in self?.applyCursor(hidden: true) } }
        }
    }

    public var isIdleWarningVisible: Bool { warning.isVisible }
    public var idleWarningText: String { warning.message }

    // MARK: The cursor

    private func restartCursorTimer() {
        cursorTimer?.cancel()
        cursorTimer = nil
        guard settings.hideCursor > 0 else { return }
        cursorTimer = MainLoop.after(milliseconds: UInt32(min(settings.hideCursor, 86_400)) * 1000) { [weak self] in
            self?.applyCursor(hidden: true)
        }
    }

    private func showCursor() {
        if isCursorHidden { applyCursor(hidden: false) }
    }

    /// The blank cursor goes on the window and on the web view's own GdkWindow (WebKit sets the
    /// page's cursors there); showing puts back the default, and WebKit its own on the next move.
    private func applyCursor(hidden: Bool) {
        guard let browser, let window = browser.window, let gdkWindow = gtk_widget_get_window(window) else { return }
        isCursorHidden = hidden
        var targets = [gdkWindow]
        if let view = browser.webView,
           let viewWindow = gtk_widget_get_window(UnsafeMutableRawPointer(view).assumingMemoryBound(to: GtkWidget.self)),
           viewWindow != gdkWindow {
            targets.append(viewWindow)
        }
        let blank = hidden ? gdk_cursor_new_for_display(gdk_window_get_display(gdkWindow), GDK_BLANK_CURSOR) : nil
        for target in targets { gdk_window_set_cursor(target, blank) }
        if let blank { g_object_unref(UnsafeMutableRawPointer(blank)) }
    }

    // MARK: Leaving kiosk mode

    private func openExitDialog() {
        guard gate != nil else {
            Log.info("exit chord pressed, but no exit-pin-hash is set", fields: ["PORTHOLE_EVENT": "exit-refused"])
            return
        }
        if let exitDialog { exitDialog.present(); return }
        guard let window = browser?.window else { return }
        exitDialog = ExitPinDialog(over: window) { [unowned self] pin in self.pinEntered(pin) }
    }

    /// A slow hash (yescrypt, tens of milliseconds) is computed on a worker thread so the kiosk
    /// keeps drawing; the dialog's entry is insensitive meanwhile, so one PIN is checked at a time.
    private func pinEntered(_ pin: String?) {
        guard let pin else { closeExitDialog(); return }
        guard var gate, !isCheckingPin else { return }
        if let answer = gate.lockout(at: Self.now()) {
            self.gate = gate
            pinChecked(answer)
            return
        }
        self.gate = gate
        isCheckingPin = true
        exitDialog?.checking()
        let hash = gate.hash
        DispatchQueue.global(qos: .userInitiated).async {
            let matched = hash.matches(pin: pin)
            MainLoop.post { [weak self] in
                guard let self, var gate = self.gate else { return }
                self.isCheckingPin = false
                let answer = gate.record(matched: matched, at: Self.now())
                self.gate = gate
                self.pinChecked(answer)
            }
        }
    }

    private func pinChecked(_ answer: ExitPinGate.Answer) {
        if answer == .correct {
            Log.write(.message, "kiosk mode left with the exit PIN", fields: ["PORTHOLE_EVENT": "kiosk-exit"])
            closeExitDialog()
            exit()
        } else {
            Log.write(.warning, "wrong exit PIN", fields: ["PORTHOLE_EVENT": "exit-pin-wrong"])
            exitDialog?.refuse(ExitPinGate.message(for: answer))
            if case .lockedOut = answer { countLockoutDown() }
        }
    }

    /// Keeps the "Try again in N seconds" line true until PINs are checked again.
    private func countLockoutDown() {
        lockoutTicker?.cancel()
        lockoutTicker = MainLoop.every(milliseconds: 1000) { [weak self] in
            guard let self, let dialog = self.exitDialog, let gate = self.gate else { return false }
            guard let seconds = gate.lockoutSecondsLeft(at: Self.now()) else {
                dialog.say(tr("You can try again now."))
                self.lockoutTicker = nil
                return false
            }
            dialog.say(ExitPinGate.message(for: .lockedOut(secondsLeft: seconds)))
            return true
        }
    }

    private func closeExitDialog() {
        lockoutTicker?.cancel()
        lockoutTicker = nil
        exitDialog?.close()
        exitDialog = nil
    }

    /// The exit dialog's PIN entry while it is open (tests type into it).
    public var exitDialogEntry: UnsafeMutablePointer<GtkWidget>? { exitDialog?.entry }
    public var exitDialogMessage: String? { exitDialog?.message }

    /// Closes the window for good: with it the application quits.
    private func exit() {
        exiting = true
        browser?.close()
    }

    // MARK: Teardown

    func teardown() {
        closeExitDialog()
        idleTicker?.cancel()
        cursorTimer?.cancel()
        reloadTimer?.cancel()
        uninhibitIdle()
        connections.disconnectAll()
        inputHook?.remove()
        inputHook = nil
        warning.release()
    }
}
