// A kiosk's own rules as one value: keys, the visitor session's idle clock, the cursor,
// reload-every, closing and full screen, leaving with the exit PIN, and its next wake-up.

/// What input the kiosk saw, as far as its rules tell inputs apart.
public enum KioskInput: Sendable, Equatable {
    /// A key, a touchpad gesture, a moving finger, or a touchscreen's emulated pointer.
    case other
    /// A finger touching the screen: it needs no arrow.
    case touch
    /// A real pointer (mouse, touchpad) moved, clicked or scrolled.
    case pointer
}

public enum KioskEvent: Sendable, Equatable {
    /// A key pressed in the kiosk window, before GTK's accelerators and the page see it.
    case key(KeyChord)
    /// Keyboard, pointer or touch input anywhere in the window or the exit dialog, at `at`.
    case input(KioskInput, at: Double)
    /// The clock at `at` (the wake-up asked for, or later); `pageLoading`: whether a load runs now.
    case tick(at: Double, pageLoading: Bool)
    /// The window manager or Alt+F4 asked to close the window.
    case closeRequested
    /// Something took the window out of full screen.
    case leftFullscreen
    /// The exit dialog's answer: the PIN typed, or nil when it was cancelled.
    case pinEntered(String?, at: Double)
    /// The hash of the PIN handed out with `.checkPin` was compared, at `at`.
    case pinChecked(matched: Bool, at: Double)
    /// The idle warning's More time button, at `at`.
    case moreTime(at: Double)
    /// Speech (read-aloud mode) was turned on or off: the idle time is longer while it is on.
    case speechChanged(on: Bool)
    /// A visitor control in the kiosk bar was pressed.
    case visitorControl(VisitorControl)
}

public enum KioskCommand: Sendable, Equatable {
    /// Let the key through to GTK and the page.
    case passKey
    /// Swallow the key (`why` is for the log).
    case swallowKey(KeyChord, why: String)
    case showWarning(secondsLeft: Int)
    /// The idle warning's sound, with the warning (it is not only visual: WCAG 2.2.1).
    case playWarningSound
    case updateWarning(secondsLeft: Int)
    /// Input cancelled the warning.
    case hideWarning
    /// Hide the warning, forget the visitor, go home; hide the cursor again on the new page.
    case startNewSession(hideCursorAgain: Bool)
    case hideCursor
    case showCursor
    case reload
    /// Refuse the close request.
    case refuseClose
    case refullscreen
    /// The exit chord was pressed, and there is no exit PIN to ask for.
    case noExitPin
    case openExitDialog
    /// Bring the exit dialog, already open, to the front.
    case presentExitDialog
    /// Compare `pin` with `hash` (slowly, off the main thread) and answer `.pinChecked`.
    case checkPin(String, ExitPinHash)
    case refusePin(ExitPinGate.Answer)
    /// Keep the exit dialog's lockout line true: seconds still locked out, or nil when PINs
    /// are checked again.
    case sayLockout(secondsLeft: Int?)
    case closeExitDialog
    /// Leave kiosk mode: close the window for good.
    case exit
    /// Show the visitor controls so: larger text (page zoom and chrome times `textScale`) and
    /// high contrast (chrome theme and the pages' style sheet).
    case applyVisitorControls(VisitorControls, textScale: Double)
}

/// The kiosk's decisions for one window. Times are monotonic seconds passed in by the caller,
/// who ticks it at `nextWakeUp(after:)`, so a kiosk left alone is woken only when something is
/// due. Reuses `KioskKeyFilter`, `IdleSession` and `ExitPinGate` for their parts.
public struct KioskSession: Sendable, Equatable {
    /// Timers longer than a day are a day: GLib timeouts count milliseconds in 32 bits.
    static let longestTimer = 86_400

    public let filter: KioskKeyFilter
    public internal(set) var idle: IdleSession
    public private(set) var gate: ExitPinGate?
    public let accessibility: AccessibilitySettings
    /// What the current visitor turned on in the kiosk bar; the idle reset puts back the defaults.
    public internal(set) var visitor: VisitorControls
    public internal(set) var isSpeechOn = false
    private let hideCursorAfter: Double?
    private let reloadEvery: Double?

    public private(set) var isCursorHidden = false
    private var cursorDue: Double?
    private var reloadDue: Double?
    public private(set) var isExitDialogOpen = false
    /// A PIN is being hashed: the next one waits.
    public private(set) var isCheckingPin = false
    private var lockoutLineDue: Double?
    /// The exit PIN was right: the window may close and leave full screen.
    public private(set) var isExiting = false

    /// The last key presses swallowed, in order: at most 32, so a kiosk that runs for months does
    /// not keep every key a visitor pressed.
    public private(set) var swallowedKeys: [KeyChord] = []
    public private(set) var refusedCloses = 0
    /// Visitor sessions started after an idle timeout.
    public private(set) var sessionsStarted = 0

    /// A kiosk with `settings`, started at `now`: the cursor's and reload-every's clocks run from then.
    public init(settings: KioskSettings, accessibility: AccessibilitySettings = AccessibilitySettings(), at now: Double) {
        self.accessibility = accessibility
        visitor = accessibility.visitorDefaults
        filter = KioskKeyFilter(shortcuts: settings.shortcuts, exitChord: settings.exitChord.flatMap(KeyChord.init(accelerator:)))
        idle = IdleSession(timeout: settings.idleTimeout, warning: settings.idleWarning)
        gate = settings.exitPinHash.map { ExitPinGate(hash: $0) }
        hideCursorAfter = settings.hideCursor > 0 ? Double(min(settings.hideCursor, Self.longestTimer)) : nil
        reloadEvery = settings.reloadEvery > 0 ? Double(min(settings.reloadEvery, Self.longestTimer)) : nil
        cursorDue = hideCursorAfter.map { now + $0 }
        reloadDue = reloadEvery.map { now + $0 }
    }

    public mutating func handle(_ event: KioskEvent) -> [KioskCommand] {
        switch event {
        case .key(let chord): key(chord)
        case .input(let input, let now): self.input(input, at: now)
        case .tick(let now, let pageLoading): tick(at: now, pageLoading: pageLoading)
        case .closeRequested: closeRequested()
        case .leftFullscreen: isExiting ? [] : [.refullscreen]
        case .pinEntered(let pin, let now): pinEntered(pin, at: now)
        case .pinChecked(let matched, let now): pinChecked(matched: matched, at: now)
        case .moreTime(let now): moreTime(at: now)
        case .speechChanged(let on): speechChanged(on: on)
        case .visitorControl(let control): visitorControl(control)
        }
    }

    /// When `handle(.tick)` next has something to do, or nil while nothing can happen (a fresh
    /// session with the cursor hidden and no reloads waits for input).
    public func nextWakeUp(after now: Double) -> Double? {
        [idle.nextTick(after: now), cursorDue, reloadDue, lockoutLineDue].compactMap { $0 }.min()
    }

    // MARK: Keys, closing

    private mutating func key(_ chord: KeyChord) -> [KioskCommand] {
        switch filter.decide(chord) {
        case .pass:
            return [.passKey]
        case .exitChord:
            guard gate != nil else { return [.noExitPin] }
            if isExitDialogOpen { return [.presentExitDialog] }
            isExitDialogOpen = true
            return [.openExitDialog]
        case .swallow(let why):
            swallowedKeys.append(chord)
            if swallowedKeys.count > 32 { swallowedKeys.removeFirst() }
            return [.swallowKey(chord, why: why)]
        }
    }

    private mutating func closeRequested() -> [KioskCommand] {
        guard !isExiting else { return [] }
        refusedCloses += 1
        return [.refuseClose]
    }

    // MARK: Input and time

    private mutating func input(_ input: KioskInput, at now: Double) -> [KioskCommand] {
        var out = idleCommands(idle.input(at: now))
        switch input {
        case .other:
            break
        case .touch:
            if !isCursorHidden {
                isCursorHidden = true
                out.append(.hideCursor)
            }
        case .pointer:
            if isCursorHidden {
                isCursorHidden = false
                out.append(.showCursor)
            }
            cursorDue = hideCursorAfter.map { now + $0 }
        }
        return out
    }

    private mutating func tick(at now: Double, pageLoading: Bool) -> [KioskCommand] {
        var out = idleCommands(idle.tick(at: now))
        if let due = cursorDue, now >= due {
            cursorDue = nil
            isCursorHidden = true
            out.append(.hideCursor)
        }
        if let due = reloadDue, let every = reloadEvery, now >= due {
            reloadDue = now + every
            // A page still loading is not cut short; the next round reloads it.
            if !pageLoading { out.append(.reload) }
        }
        if let due = lockoutLineDue, now >= due {
            if !isExitDialogOpen {
                lockoutLineDue = nil
            } else if let seconds = gate?.lockoutSecondsLeft(at: now) {
                lockoutLineDue = now + 1
                out.append(.sayLockout(secondsLeft: seconds))
            } else {
                lockoutLineDue = nil
                out.append(.sayLockout(secondsLeft: nil))
            }
        }
        return out
    }

    mutating func idleCommands(_ action: IdleSession.Action) -> [KioskCommand] {
        switch action {
        case .none: return []
        case .showWarning(let seconds): return [.showWarning(secondsLeft: seconds), .playWarningSound]
        case .updateWarning(let seconds): return [.updateWarning(secondsLeft: seconds)]
        case .hideWarning: return [.hideWarning]
        case .startNewSession:
            sessionsStarted += 1
            return closeExitDialog() + [.startNewSession(hideCursorAgain: isCursorHidden)] + resetVisitorControls()
        }
    }

    // MARK: Leaving kiosk mode

    private mutating func pinEntered(_ pin: String?, at now: Double) -> [KioskCommand] {
        guard let pin else { return closeExitDialog() }
        guard var gate, !isCheckingPin else { return [] }
        let refusal = gate.lockout(at: now)
        self.gate = gate
        if let refusal { return answered(refusal, at: now) }
        isCheckingPin = true
        return [.checkPin(pin, gate.hash)]
    }

    private mutating func pinChecked(matched: Bool, at now: Double) -> [KioskCommand] {
        guard var gate else { return [] }
        isCheckingPin = false
        let answer = gate.record(matched: matched, at: now)
        self.gate = gate
        return answered(answer, at: now)
    }

    private mutating func answered(_ answer: ExitPinGate.Answer, at now: Double) -> [KioskCommand] {
        if answer == .correct {
            isExiting = true
            return closeExitDialog() + [.exit]
        }
        // Once a second, the dialog's "Try again in N seconds" line is brought up to date.
        if case .lockedOut = answer { lockoutLineDue = now + 1 }
        return [.refusePin(answer)]
    }

    private mutating func closeExitDialog() -> [KioskCommand] {
        isExitDialogOpen = false
        lockoutLineDue = nil
        return [.closeExitDialog]
    }
}
