// Where the window's touch support meets its web views: the on-screen keyboard and the pinch
// guard follow each new web view (the first one, and each visitor session's).
import CWebKitGtk
import PortholeCore

extension OnScreenKeyboard {
    /// The keyboard for a window's options, or nil when its mode is off.
    static func make(_ options: BrowserOptions) -> OnScreenKeyboard? {
        guard let mode = options.keyboard.mode, mode != .off else { return nil }
        return OnScreenKeyboard(settings: options.keyboard, devices: options.inputDevices?())
    }
}

extension BrowserWindow {
    /// Touch and pinch events kept from the page by `pinch-zoom=false`; nil when pinch zoom is on.
    public var pinchEventsDropped: Int? { pinchGuard?.droppedEvents }

    /// Points the keyboard and the pinch guard at the current web view; for a new visitor
    /// session the keyboard also forgets its state.
    func attachTouchInput(newSession: Bool) {
        guard let view = webView else { return }
        if newSession { keyboard?.startNewSession(in: view) } else { keyboard?.attach(to: view) }
        applyPinchZoom(renewing: true)
    }

    /// Guards the current web view against pinches unless `pinch-zoom` is on; `renewing` for a
    /// new web view, else only when the setting changed (a configuration reload).
    func applyPinchZoom(renewing: Bool = false) {
        guard renewing || (pinchGuard == nil) != options.pinchZoom else { return }
        pinchGuard?.detach()
        pinchGuard = nil
        if !options.pinchZoom, let view = webView { pinchGuard = PinchGuard(view: view) }
    }

    func detachTouchInput() {
        keyboard?.teardown()
        pinchGuard?.detach()
        pinchGuard = nil
    }
}
