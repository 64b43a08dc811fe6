// Kiosk mode for one window: full screen, no way out, visitor sessions, cursor and screen.
import CWebKitGtk
import Dispatch
import GLibBridge
import PortholeCore

/// Made by a window whose options carry `[Kiosk]` settings, and owned by it. An adapter: it
/// turns GTK's events and its clock's wake-ups into `KioskEvent`s for its `KioskSession`, and
/// the session's `KioskCommand`s into calls on GTK and on its `KioskHost`. What pages may do
/// (menus, printing, downloads, permissions) is the web view's BrowsingRules; this object is about
/// the window and the people in front of it.
@MainActor
public final class KioskController {
    public let settings: KioskSettings
    private(set) weak var host: (any KioskHost)?
    private let clock: any Clock
    private(set) var session: KioskSession
    /// When the next visitor's session is prepared, swapped in, thrown away.
    private(set) var nextVisitor = NextVisitorPlan()
    private let connections = SignalConnections()
    private var inputHook: EmissionHook?
    /// The one timer, set for the session's next wake-up (`at`).
    private var wakeUp: (timer: any ClockTimer, at: Double)?
    /// Set in init as soon as `self` can be captured (its More time button calls back).
    private(set) var warning: IdleWarning!
    let warningSound: WarningSound
    var visitorBar: VisitorControlsBar?
    let appearance: VisitorAppearance
    private var inhibitCookie: guint = 0
    private var exitDialog: ExitPinDialog?
    /// Told what the visitor should hear: the idle warning and its countdown, the PIN dialog.
    var onSpeech: (@MainActor (SpeechEvent) -> Void)?

    /// The last key presses swallowed, in order (the log has them all), at most 32.
    public var swallowedKeys: [KeyChord] { session.swallowedKeys }
    /// Close requests refused (window manager close, Alt+F4).
    public var refusedCloses: Int { session.refusedCloses }
    /// Visitor sessions started after an idle timeout.
    public var sessionsStarted: Int { session.sessionsStarted }
    public var isCursorHidden: Bool { session.isCursorHidden }

    init(host: any KioskHost, settings: KioskSettings, accessibility: AccessibilitySettings = AccessibilitySettings(),
         clock: any Clock, warningSoundSink: String = "autoaudiosink") {
        self.host = host
        self.settings = settings
        self.clock = clock
        session = KioskSession(settings: settings, accessibility: accessibility, at: clock.now)
        warningSound = WarningSound(sink: warningSoundSink)
        appearance = VisitorAppearance(manager: host.userContentManager)
        warning = IdleWarning(in: host.windowOverlay) { [unowned self] in self.handle(.moreTime(at: self.clock.now)) }
        makeVisitorControls()
        guard let window = host.window else { return }
        let object = UnsafeMutableRawPointer(window)
        // Runs before GtkWindow's own handler, which activates accelerators, then the page.
        connections.connect(object, "key-press-event", .pointerReturningBool { [unowned self] event in
            guard let event, let chord = Self.chord(event.assumingMemoryBound(to: GdkEvent.self).pointee.key) else { return false }
            return self.handle(.key(chord)) != [.passKey]
        })
        // GtkWidget::event is emitted on the widget an event is for before any handler runs, so
        // the hook sees input on the page although the page handles it. Events for the exit
        // dialog count too: an admin typing the PIN is not idle.
        inputHook = EmissionHook(type: gtk_widget_get_type(), signal: "event") { [weak self] widget, arguments in
            guard let self, let widget, let event = arguments.first ?? nil else { return }
            let toplevel = gtk_widget_get_toplevel(widget.assumingMemoryBound(to: GtkWidget.self))
            guard let toplevel, toplevel == window || self.exitDialog?.isWindow(toplevel) == true,
                  let input = Self.input(event.assumingMemoryBound(to: GdkEvent.self)) else { return }
            let moreTime = self.warning.isMoreTime(event.assumingMemoryBound(to: GdkEvent.self), on: widget.assumingMemoryBound(to: GtkWidget.self))
            self.handle(.input(input, at: self.clock.now))
            if moreTime { self.handle(.moreTime(at: self.clock.now)) }
        }
        connections.connect(object, "window-state-event", .pointerReturningBool { [unowned self] event in
            guard let event else { return false }
            let state = event.assumingMemoryBound(to: GdkEventWindowState.self).pointee
            let fullscreen = GDK_WINDOW_STATE_FULLSCREEN.rawValue
            if state.changed_mask.rawValue & fullscreen != 0, state.new_window_state.rawValue & fullscreen == 0 {
                self.handle(.leftFullscreen)
            }
            return false
        })
        connections.connect(object, "map", .plain { [unowned self] in self.inhibitIdle() })
        connections.connect(object, "unmap", .plain { [unowned self] in self.uninhibitIdle() })
        scheduleWakeUp()
        Log.info("kiosk mode", fields: ["PORTHOLE_EVENT": "kiosk-start",
                                        "PORTHOLE_SHORTCUTS": settings.shortcuts.map(\.rawValue).joined(separator: ";")])
    }

    // MARK: Events in, commands out

    @discardableResult
    func handle(_ event: KioskEvent) -> [KioskCommand] {
        let commands = session.handle(event)
        for command in commands { run(command) }
        run(nextVisitor.handle(.tick(at: clock.now, resetDue: session.idle.resetDue, lastInput: session.idle.lastInput)))
        scheduleWakeUp()
        return commands
    }

    public var isNextVisitorReady: Bool {
        if case .ready = nextVisitor.state { return true }
        return false
    }

    /// The prepared view loaded or failed, or the window has new options.
    public func nextVisitorChanged(_ event: NextVisitorEvent) {
        run(nextVisitor.handle(event))
        scheduleWakeUp()
    }

    private func run(_ commands: [NextVisitorCommand]) {
        for command in commands {
            switch command {
            case .prepare: host?.prepareNextVisitor()
            case .discard(let why):
                Log.info("next visitor's session thrown away: \(why)", fields: ["PORTHOLE_EVENT": "next-visitor-discarded"])
                host?.discardNextVisitor()
            case .swap: host?.startNewSession(swapping: true)
            case .rebuild: host?.startNewSession(swapping: false)
            }
        }
    }

    func run(_ command: KioskCommand) {
        switch command {
        case .passKey: break
        case .swallowKey(let chord, let why):
            Log.debug("key refused in kiosk mode: \(chord) (\(why))", fields: ["PORTHOLE_EVENT": "key-refused"])
        case .showWarning(let seconds):
            Log.info("idle: warning for \(seconds) s", fields: ["PORTHOLE_EVENT": "idle-warning"])
            warning.show(secondsLeft: seconds)
            // Enter or Space is then More time, and a screen reader reads the button.
            gtk_widget_grab_focus(warning.moreTimeButton)
            onSpeech?(.idleWarning(secondsLeft: seconds, first: true))
        case .playWarningSound: warningSound.play()
        case .updateWarning(let seconds):
            warning.update(secondsLeft: seconds)
            onSpeech?(.idleWarning(secondsLeft: seconds, first: false))
        case .hideWarning:
            Log.info("idle warning cancelled by input", fields: ["PORTHOLE_EVENT": "idle-cancelled"])
            warning.hide()
            // After the key that dismissed it has gone to nobody (the hidden button had the
            // focus): a key that only meant "still here" does not type into the page.
            MainLoop.idle { [weak self] in self?.host?.focusPage() }
        case .startNewSession(let hideCursorAgain):
            warning.hide()
            run(nextVisitor.handle(.reset))
            // The new web view's GdkWindow exists once GTK has realized it.
            if hideCursorAgain { MainLoop.idle { [weak self] in self?.applyCursor(hidden: true) } }
        case .hideCursor: applyCursor(hidden: true)
        case .showCursor: applyCursor(hidden: false)
        case .reload: host?.reloadPage()
        case .refuseClose: Log.info("close refused in kiosk mode", fields: ["PORTHOLE_EVENT": "close-refused"])
        case .refullscreen:
            guard let window = host?.window else { return }
            Log.info("back to full screen", fields: ["PORTHOLE_EVENT": "refullscreen"])
            gtk_window_fullscreen(window.cast())
        case .noExitPin:
            Log.info("exit chord pressed, but no exit-pin-hash is set", fields: ["PORTHOLE_EVENT": "exit-refused"])
        case .openExitDialog:
            guard let window = host?.window else { return }
            exitDialog = ExitPinDialog(over: window) { [unowned self] pin in self.handle(.pinEntered(pin, at: self.clock.now)) }
            onSpeech?(.announced(ExitPinDialog.spokenPrompt))
        case .presentExitDialog: exitDialog?.present()
        case .checkPin(let pin, let hash): check(pin, against: hash)
        case .refusePin(let answer):
            Log.write(.warning, "wrong exit PIN", fields: ["PORTHOLE_EVENT": "exit-pin-wrong"])
            exitDialog?.refuse(ExitPinGate.message(for: answer))
            onSpeech?(.announced(ExitPinGate.message(for: answer)))
        case .sayLockout(let seconds?): exitDialog?.say(ExitPinGate.message(for: .lockedOut(secondsLeft: seconds)))
        case .sayLockout(nil): exitDialog?.say(tr("You can try again now."))
        case .closeExitDialog:
            exitDialog?.close()
            exitDialog = nil
        case .exit:
            Log.write(.message, "kiosk mode left with the exit PIN", fields: ["PORTHOLE_EVENT": "kiosk-exit"])
            host?.close()  // with the window the application quits
        case .applyVisitorControls(let controls, let textScale): showVisitorControls(controls, textScale: textScale)
        }
    }

    /// One timer, at the session's next wake-up; none while nothing can happen, so an untouched
    /// kiosk is not woken up at all. A timer already set earlier stays: it fires early at worst,
    /// and the tick sets the next one.
    private func scheduleWakeUp() {
        let now = clock.now
        let idle = session.idle
        let next = nextVisitor.nextWakeUp(resetDue: idle.resetDue, lastInput: idle.lastInput)
        guard let due = [session.nextWakeUp(after: now), next].compactMap({ $0 }).min() else { return }
        if let wakeUp, wakeUp.timer.isActive, wakeUp.at <= due { return }
        wakeUp?.timer.cancel()
        wakeUp = (clock.after(seconds: max(0, due - now)) { [weak self] in
            guard let self else { return }
            self.wakeUp = nil
            self.handle(.tick(at: self.clock.now, pageLoading: self.host?.isPageLoading ?? false))
        }, due)
    }

    // MARK: The window

    /// Called before the window is first shown: full screen from the first frame. The default
    /// size is the monitor's, so even without a window manager (a bare X server) it fills it.
    func prepareToShow() {
        guard let window = host?.window else { return }
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
        handle(.closeRequested).contains(.refuseClose)
    }

    public var isFullscreen: Bool {
        guard let window = host?.window, let gdkWindow = gtk_widget_get_window(window) else { return false }
        return gdk_window_get_state(gdkWindow).rawValue & GDK_WINDOW_STATE_FULLSCREEN.rawValue != 0
    }

    /// Keeps the screen on while a page shows (GTK asks the session: GNOME's session manager or
    /// the desktop portal; without either it can do nothing, see "Kiosk mode" in the README).
    private func inhibitIdle() {
        guard inhibitCookie == 0, let window = host?.window, let application = gtk_window_get_application(window.cast()) else { return }
        // TRANSLATORS: why the screen does not blank, as the desktop may show it.
        inhibitCookie = gtk_application_inhibit(application, window.cast(), GTK_APPLICATION_INHIBIT_IDLE, tr("Showing a kiosk page"))
        Log.debug("screen blanking inhibited: \(inhibitCookie != 0)")
    }

    private func uninhibitIdle() {
        guard inhibitCookie != 0, let window = host?.window, let application = gtk_window_get_application(window.cast()) else { return }
        gtk_application_uninhibit(application, inhibitCookie)
        inhibitCookie = 0
    }

    public var isIdleWarningVisible: Bool { warning.isVisible }
    public var idleWarningText: String { warning.message }

    /// The blank cursor goes on the window and on the page's own GdkWindow (WebKit sets the
    /// page's cursors there); showing puts back the default, and WebKit its own on the next move.
    private func applyCursor(hidden: Bool) {
        guard let host, let window = host.window, let gdkWindow = gtk_widget_get_window(window) else { return }
        var targets = [gdkWindow]
        if let pageWindow = host.pageGdkWindow, pageWindow != gdkWindow { targets.append(pageWindow) }
        let blank = hidden ? gdk_cursor_new_for_display(gdk_window_get_display(gdkWindow), GDK_BLANK_CURSOR) : nil
        for target in targets { gdk_window_set_cursor(target, blank) }
        if let blank { g_object_unref(UnsafeMutableRawPointer(blank)) }
    }

    // MARK: Leaving kiosk mode

    /// A slow hash (yescrypt, tens of milliseconds) is computed on a worker thread so the kiosk
    /// keeps drawing; the dialog's entry is insensitive meanwhile, and the session checks one PIN
    /// at a time.
    private func check(_ pin: String, against hash: ExitPinHash) {
        exitDialog?.checking()
        DispatchQueue.global(qos: .userInitiated).async {
            let matched = hash.matches(pin: pin)
            MainLoop.post { [weak self] in
                guard let self else { return }
                self.handle(.pinChecked(matched: matched, at: self.clock.now))
            }
        }
    }

    /// The exit dialog's PIN entry while it is open (tests type into it).
    public var exitDialogEntry: UnsafeMutablePointer<GtkWidget>? { exitDialog?.entry }
    public var exitDialogMessage: String? { exitDialog?.message }

    // MARK: Teardown

    func teardown() {
        exitDialog?.close()
        exitDialog = nil
        wakeUp?.timer.cancel()
        wakeUp = nil
        uninhibitIdle()
        connections.disconnectAll()
        inputHook?.remove()
        inputHook = nil
        warning.release()
        warningSound.stop()
        visitorBar?.release()
        if let host { appearance.restore(host) }
    }
}
