// WebKitGTK's bubblewrap sandbox for page web processes: whether it can run here, and what a
// sandboxed web process must still read (Porthole's web process extension and its libraries).
import CDynamicLoader
import CWebKitGtk
import GLibBridge
import PortholeCore

public enum SandboxSetup {
    /// The programs WebKitGTK's launcher runs (Debian's WebKit is built with these paths).
    public static let programs = ["/usr/bin/bwrap", "/usr/bin/xdg-dbus-proxy"]

    /// Whether bubblewrap runs here with the namespaces WebKit's launcher asks for: tried once,
    /// by running it (a kernel without unprivileged user namespaces refuses them at once).
    public static func availability() -> WebProcessSandbox.Availability {
        for program in programs where g_file_test(program, G_FILE_TEST_IS_EXECUTABLE) == 0 {
            return .unavailable(reason: "\(program) is not installed")
        }
        let arguments = [programs[0], "--ro-bind", "/", "/", "--unshare-all", "--share-net", "--die-with-parent", "--", "/bin/true"]
        var errorOutput: UnsafeMutablePointer<gchar>?
        var status: gint = 0
        var error: UnsafeMutablePointer<GError>?
        // With its descriptors left open GLib starts bwrap with posix_spawn instead of fork: no copy
        // of this process's page tables (with WebKit and GTK mapped) on start-up's path. What
        // bwrap inherits goes no further than /bin/true, unshared from all but the network;
        // GLib and GTK open their own descriptors close-on-exec.
        let flags = GSpawnFlags(rawValue: G_SPAWN_STDOUT_TO_DEV_NULL.rawValue | G_SPAWN_LEAVE_DESCRIPTORS_OPEN.rawValue)
        let spawned = withCStringArray(arguments) { argv in
            g_spawn_sync(nil, argv, nil, flags, nil, nil, nil, &errorOutput, &status, &error)
        }
        defer { g_free(errorOutput) }
        if spawned == 0 { return .unavailable(reason: GLibError.take(error)?.message ?? "bwrap did not start") }
        guard g_spawn_check_wait_status(status, nil) != 0 else {
            let said = errorOutput.map { String(cString: $0) }?.split(separator: "\n").first.map(String.init)
            return .unavailable(reason: said ?? "bwrap exited with status \(status)")
        }
        return .runs
    }

    /// The directories a sandboxed web process must read besides what WebKit gives it: the
    /// extension's directory, the directory its symbolic link points into (a build tree), and the
    /// Swift runtime's when the extension links it as shared libraries (a debug build).
    static func readOnlyPaths(extensionDirectory: String) -> [String] {
        var paths = [extensionDirectory]
        let library = extensionDirectory + "/" + WebProcessExtension.libraryName
        if let real = realpath(library, nil) {
            defer { free(real) }
            let directory = String(cString: real).split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            if !directory.isEmpty { paths.append(directory) }
        }
        if let runtime = sharedSwiftRuntime { paths.append(runtime) }
        return paths.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// Where this process's `libswiftCore.so` is mapped from, if it is a shared library: read
    /// once, since every visitor session's context (and each prepared next one) asks again.
    private static let sharedSwiftRuntime = sharedSwiftRuntimeDirectory()

    /// Asks the dynamic loader which file defines the runtime's `swift_retain`: nil in a build
    /// with the runtime linked in statically (it exports no such symbol), else its directory.
    private static func sharedSwiftRuntimeDirectory() -> String? {
        guard let file = porthole_object_file_defining("swift_retain").map({ String(cString: $0) }),
              file.hasSuffix("/libswiftCore.so") else { return nil }
        return file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    }
}

extension BrowserEngine {
    /// Starts this context's web processes in the sandbox (before the first one starts).
    func setUpSandbox(_ context: UnsafeMutablePointer<WebKitWebContext>) {
        guard sandboxed else { return }
        webkit_web_context_set_sandbox_enabled(context, 1)
        guard let directory = WebProcessExtension.directory else { return }
        for path in SandboxSetup.readOnlyPaths(extensionDirectory: directory) {
            webkit_web_context_add_path_to_sandbox(context, path, 1)
        }
    }
}
