// `[Browser] gpu-painting=` (decided by PortholeCore's GPUPainting) applied to the environment
// WebKit's web processes start with.
import GLDriverPreload
import CWebKitGtk
import GLibBridge
import PortholeCore

public enum PagePainting {
    /// Sets what `choice` needs in this process's environment, which every web process inherits
    /// as WebKit starts it: call before the first load. Returns whether pages paint on the GPU.
    @discardableResult
    public static func prepare(_ choice: GPUPainting) -> Bool {
        var environment: [String: String] = [:]
        for name in [GPUPainting.cpuPaintingVariable, "LIBGL_ALWAYS_SOFTWARE"] {
            if let value = g_getenv(name) { environment[name] = String(cString: value) }
        }
        let renderNode = hasRenderNode()
        for (name, value) in choice.environmentToSet(hasRenderNode: renderNode, environment: environment) {
            g_setenv(name, value, 1)
        }
        let onGPU = choice.paintsOnGPU(hasRenderNode: renderNode, environment: environment)
        Log.info(onGPU ? "pages are painted on the GPU" : "pages are painted on the CPU",
                 fields: ["PORTHOLE_GPU_PAINTING": choice.rawValue, "PORTHOLE_RENDER_NODE": renderNode ? "true" : "false"])
        return onGPU
    }

    /// Starts loading Mesa's GL driver on another thread (GLDriverPreload.h): GTK's
    /// initialisation and WebKit's first web view open it on the main thread, and its 15-35 ms of
    /// relocations then overlap the configuration, the bus connection and GTK's start instead of
    /// adding to them. Call after `prepare` (the environment must be set first); it starts the
    /// load once.
    public static func preloadDriver() {
        porthole_preload_gl_driver()
    }

    /// Returns once the driver's load has finished (at once if it never started). The process must
    /// call it before it exits: exiting mid-load hangs or aborts it (GLDriverPreload.h).
    public static func finishDriverPreload() {
        porthole_finish_gl_driver_preload()
    }

    /// Whether the machine has a GPU that GL can use: a DRM render node (`/dev/dri/renderD128`, …).
    static func hasRenderNode(directory: String = "/dev/dri") -> Bool {
        guard let dir = g_dir_open(directory, 0, nil) else { return false }
        defer { g_dir_close(dir) }
        while let name = g_dir_read_name(dir) {
            if String(cString: name).hasPrefix("renderD") { return true }
        }
        return false
    }
}
