// `[Browser] swipe-navigation=auto`: WebKit's back/forward swipes (and the page snapshots they
// keep) are on only while a touchpad or touchscreen is connected, following hot-plug.
import GLibBridge
import PortholeCore

extension BrowserWindow {
    /// The web view's settings, with swipes decided by the connected devices under `auto`.
    func settingsWithSwipes() -> WebViewSettings {
        var settings = options.settings
        if options.swipesFollowDevices {
            settings.backForwardGestures = SwipeNavigation.auto.isEnabled(devices: swipeDevices?.devices ?? [])
        }
        return settings
    }

    /// Starts following the input devices when `auto` asks for it: once per window, kept across
    /// configuration reloads (while the mode is not `auto` the list is not read).
    func followSwipeDevices() {
        guard options.swipesFollowDevices, swipeDevices == nil else { return }
        let devices = options.inputDevices?() ?? SeatInputDevices()
        // A test may hand the keyboard and the swipes one device list: keep the keyboard's handler.
        let earlier = devices.onChange
        devices.onChange = { [weak self] in
            earlier?()
            self?.swipeDevicesChanged()
        }
        swipeDevices = devices
        swipeDevicesChanged()
    }

    private func swipeDevicesChanged() {
        guard window != nil else { return }
        Log.debug("swipe navigation \(settingsWithSwipes().backForwardGestures ? "on" : "off")",
                  fields: ["PORTHOLE_EVENT": "swipe-navigation"])
        refreshWebView()
    }

    func stopFollowingSwipeDevices() {
        swipeDevices?.stop()
        swipeDevices = nil
    }
}
