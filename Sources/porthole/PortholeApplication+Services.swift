// The session bus: the services start-up asks for early, the actions exported for remote control,
// and the status record Porthole publishes there and in its status file.
import CGLib
import GLibBridge
import Glibc
import PortholeCore
import PortholeUI

extension PortholeApplication {
    /// The session services that start-up waits for, asked to start now without waiting for the
    /// answer, so that they start while Porthole creates its engine and window:
    /// - the desktop portal (org.freedesktop.portal.Desktop): GTK's start-up asks for it and, on
    ///   a session where nothing has started it yet, blocks until it has started (166 ms measured
    ///   with dbus-monitor), during which the main loop answers no WebKit message;
    /// - the accessibility bus (org.a11y.Bus): WebKit asks it for its address, synchronously,
    ///   before it starts the first web process (30-40 ms of at-spi-bus-launcher's start measured
    ///   with perf between the load and the web process's start). Porthole asks for the address
    ///   itself: starting the launcher is not enough, as it starts the bus's own dbus-daemon only
    ///   when first asked (perf: 15 ms between the load and the daemon's exec with the launcher
    ///   started early), and the bus's address is what the web processes, and a screen reader in
    ///   them, use anyway.
    /// A service that is not installed is refused by the bus, and nothing happens. Called once
    /// Porthole has set its environment (the languages, the page painting): connecting starts
    /// GDBus's thread, and g_setenv is safe only while one thread runs.
    func startBusServices() {
        guard sessionBus == nil, let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return }
        sessionBus = ObjectOwner(adopting: UnsafeMutableRawPointer(bus))
        // Without a callback GDBus sends these without waiting for a reply; the bus still starts
        // the service that owns the name (auto-start), and the launcher still starts its bus.
        g_dbus_connection_call(bus, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress",
                               nil, nil, G_DBUS_CALL_FLAGS_NONE, -1, nil, nil, nil)
        var arguments: [OpaquePointer?] = [g_variant_new_string("org.freedesktop.portal.Desktop"), g_variant_new_uint32(0)]
        let parameters = arguments.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 2) }
        g_dbus_connection_call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "StartServiceByName",
                               parameters, nil, G_DBUS_CALL_FLAGS_NONE, -1, nil, nil, nil)
    }

    /// Whether a running Porthole owns the application's name on the session bus (one round trip
    /// on the connection `startBusServices` made). Two starting at once both see none; the one
    /// that loses the name then drops its early start in `registered`.
    func anotherInstanceRuns() -> Bool {
        guard let bus = sessionBus?.opaque else { return false }
        var arguments: [OpaquePointer?] = [g_variant_new_string(Self.applicationID)]
        let parameters = arguments.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 1) }
        guard let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                      "NameHasOwner", parameters, nil, G_DBUS_CALL_FLAGS_NONE, -1, nil, nil) else { return false }
        defer { g_variant_unref(reply) }
        guard let owned = g_variant_get_child_value(reply, 0) else { return false }
        defer { g_variant_unref(owned) }
        return g_variant_get_boolean(owned) != 0
    }

    /// Publishes the status now (a configuration or profile change), with any page change waiting.
    func publishStatus() {
        perform(statusPublishing.publishNow())
    }

    /// Publishes a page event's change with the others that follow it (`StatusPublishing`).
    func publishStatusSoon() {
        guard status != publishedStatus else { return }
        perform(statusPublishing.changed())
    }

    private func perform(_ commands: [StatusPublishing.Command]) {
        for command in commands {
            switch command {
            case .wait(let milliseconds):
                statusPublication = MainLoop.after(milliseconds: milliseconds) { [unowned self] in
                    self.perform(self.statusPublishing.due())
                }
            case .cancelWait:
                statusPublication?.cancel()
                statusPublication = nil
            case .publish:
                writeStatus()
            }
        }
    }

    private func writeStatus() {
        guard let statusAction, status != publishedStatus else { return }
        statusAction.set(status.variant())
        publishedStatus = status
        writeStatusFile()
    }

    func writeStatusFile() {
        statusFile.write(StatusReport.prometheus(status, now: Int(time(nil)), maximumErrorSeconds: StatusCommand.defaultMaximumErrorMinutes * 60))
    }

    /// GTK is up: the remote-control actions, the signals, and the status record start.
    func startup() {
        DisplayWatch.start()
        let map = UnsafeMutableRawPointer(application)
        // The remote-control surface: `gapplication action dev.porthole.Porthole NAME`.
        for name in ["reload", "home", "back", "forward", "stop"] {
            appActions[name] = SimpleAction(name: name, in: map) { [unowned self] in self.window?.action(name)?.activate() }
        }
        appActions["open-site"] = SimpleAction(name: "open-site", stringParameterIn: map) { [unowned self] site in
            self.window?.openSite(site)
        }
        appActions["reload-config"] = SimpleAction(name: "reload-config", in: map) { [unowned self] in self.reloadConfiguration() }
        appActions["quit"] = SimpleAction(name: "quit", in: map) { [unowned self] in self.quit() }
        // Before the first status file: a monitor that sees it may already send SIGHUP.
        sighup = MainLoop.onUnixSignal(SIGHUP) { [unowned self] in
            Log.info("SIGHUP: reloading the configuration", fields: ["PORTHOLE_EVENT": "config-sighup"])
            self.reloadConfiguration()
        }
        sigterm = MainLoop.onUnixSignal(SIGTERM) { [unowned self] in
            Log.info("SIGTERM: quitting", fields: ["PORTHOLE_EVENT": "sigterm"])
            g_application_quit(self.gApplication)
        }
        // Read-only, for `porthole status` and monitoring: org.gtk.Actions.Describe("status").
        statusAction = StateAction(name: "status", state: status.variant(), in: map)
        writeStatusFile()
        statusRefresh = MainLoop.every(milliseconds: 30_000) { [unowned self] in
            self.checkProfile()
            self.writeStatusFile()
            return true
        }
    }
}
