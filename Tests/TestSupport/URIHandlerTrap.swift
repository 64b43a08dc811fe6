// The desktop's URI handlers replaced by a recorder: a fake default browser (a .desktop file and
// mimeapps.list in throwaway XDG directories) and xdg-open/gio stand-ins on PATH, so a test can
// tell whether anything handed a URL to another program.
import CWebKitGtk
import Foundation
import GLibBridge

public struct URIHandlerTrap {
    public let home = TemporaryDirectory()
    /// One line per run of any stand-in: its name and arguments.
    public var record: String { home.path + "/launched" }
    private var bin: String { home.path + "/bin" }

    /// Schemes and types the fake browser claims as the default application.
    public static let claimed = ["x-scheme-handler/http", "x-scheme-handler/https", "x-scheme-handler/mailto",
                                 "x-scheme-handler/tel", "x-scheme-handler/sms", "x-scheme-handler/ftp",
                                 "x-scheme-handler/file", "x-scheme-handler/about", "x-scheme-handler/unknown",
                                 "text/html", "application/pdf", "application/octet-stream"]

    public init() {
        let recorder = home.write("bin/recorder", "#!/bin/sh\necho \"$(basename \"$0\") $*\" >> '\(record)'\n")
        chmod(recorder, 0o755)
        for name in ["xdg-open", "gio", "gvfs-open", "x-www-browser", "sensible-browser", "chromium", "firefox", "epiphany"] {
            try? FileManager.default.createSymbolicLink(atPath: bin + "/" + name, withDestinationPath: recorder)
        }
        try? FileManager.default.createSymbolicLink(atPath: bin + "/trap-browser", withDestinationPath: recorder)
        home.write("data/applications/porthole-trap-browser.desktop", """
            [Desktop Entry]
            Type=Application
            Name=Trap Browser
            Exec=\(bin)/trap-browser %u
            MimeType=\(Self.claimed.joined(separator: ";"));

            """)
        let defaults = "[Default Applications]\n" + Self.claimed.map { "\($0)=porthole-trap-browser.desktop\n" }.joined()
        home.write("config/mimeapps.list", defaults)
        home.write("data/applications/mimeapps.list", defaults)
    }

    /// The environment of a child whose desktop hands every URL to the recorder.
    public var environment: [String: String] {
        ["PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
         "HOME": home.path,
         "XDG_CONFIG_HOME": home.path + "/config",
         "XDG_DATA_HOME": home.path + "/data",
         "XDG_CACHE_HOME": home.path + "/cache",
         "BROWSER": bin + "/trap-browser",
         Self.marker: record]
    }

    /// Set in a trapped child: the record's path.
    public static let marker = "PORTHOLE_URI_TRAP"

    /// What the stand-ins recorded, one run a line.
    public var launches: [String] {
        ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    public func remove() { home.remove() }

    /// Runs the XCTest `test` ("Module.Class/method") again in a child test process inside a trap,
    /// and returns what ran there: the trap's record and the child's exit status and output. The
    /// desktop's directories are read once per process, so the trap must be in place from its start.
    @MainActor
    public static func run(_ test: String, timeout: Double = 180) throws -> (launches: [String], status: Int32, output: String) {
        let trap = URIHandlerTrap()
        defer { trap.remove() }
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let child = try Subprocess.run(exe, [test], environment: trap.environment, timeout: timeout)
        // The child's last act is a launch of `control` through GIO: wait for the recorder to
        // write it, so every earlier launch has been recorded before the record is read.
        MainLoop.iterate(timeout: 30) { trap.launches.contains { $0.contains(control) } }
        return (trap.launches.filter { !$0.contains(control) } + (trap.launches.contains { $0.contains(control) } ? [] : ["(no control launch recorded)"]),
                child.status, child.stdout + child.stderr)
    }

    /// The URL the child launches last, proving the trap records launches.
    public static let control = "https://trap-control.invalid/"
}

/// In a trapped child: every program GIO starts, seen as it starts (`GAppLaunchContext::launched`).
@MainActor
public final class LaunchWitness {
    public private(set) var launched: [String] = []
    private var hook: EmissionHook?

    public init() {
        hook = EmissionHook(type: g_app_launch_context_get_type(), signal: "launched") { [unowned self] _, arguments in
            let info = arguments.first.flatMap { $0 }.map { OpaquePointer($0) }
            let name = info.flatMap { g_app_info_get_id($0) }.map { String(cString: $0) } ?? "?"
            self.launched.append(name)
        }
    }

    /// Launches the control URL through GIO with a launch context (as GTK's `gtk_show_uri` does).
    public func launchControl() -> Bool {
        let context = g_app_launch_context_new()
        defer { g_object_unref(context) }
        return g_app_info_launch_default_for_uri(URIHandlerTrap.control, context, nil) != 0
    }

    public func remove() { hook?.remove() }
}
