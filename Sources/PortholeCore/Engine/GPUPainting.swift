// `[Browser] gpu-painting=`: whether WebKit paints page content on the GPU or on the CPU.

/// `[Browser] gpu-painting=`. WebKit paints page content with Skia, on the GPU through GL by
/// default. A machine without a GPU still has GL: Mesa's software rasterizer (llvmpipe), so
/// "GPU" painting runs on the CPU through an emulated GPU, which costs more memory and time than
/// Skia painting on the CPU directly, for the same pixels (measured in docs/benchmarks.md).
/// Compositing (3D transforms, filters, video, WebGL) stays as it is either way.
public enum GPUPainting: String, Sendable, CaseIterable {
    /// On the GPU where the machine has one, else on the CPU (the default).
    case auto
    /// Always on the GPU (WebKit's default).
    case on = "true"
    /// Always on the CPU.
    case off = "false"

    /// WebKit's switch to paint on the CPU (read by each web process as it starts).
    public static let cpuPaintingVariable = "WEBKIT_SKIA_ENABLE_CPU_RENDERING"

    /// Whether pages are painted on the GPU, given whether the machine has a GPU (a DRM render
    /// node, `/dev/dri/renderD*`) and the environment Porthole was started with. GL forced to
    /// software (`LIBGL_ALWAYS_SOFTWARE`) is no GPU. WebKit's own variable, when set, decides.
    public func paintsOnGPU(hasRenderNode: Bool, environment: [String: String]) -> Bool {
        if let own = environment[Self.cpuPaintingVariable] { return own.isEmpty || own == "0" }
        switch self {
        case .on: return true
        case .off: return false
        case .auto:
            let forcedSoftware = environment["LIBGL_ALWAYS_SOFTWARE"].map { !$0.isEmpty && $0 != "0" && $0 != "false" } ?? false
            return hasRenderNode && !forcedSoftware
        }
    }

    /// The variables to set before WebKit starts a web process (none to leave WebKit's default).
    public func environmentToSet(hasRenderNode: Bool, environment: [String: String]) -> [String: String] {
        guard environment[Self.cpuPaintingVariable] == nil,
              !paintsOnGPU(hasRenderNode: hasRenderNode, environment: environment) else { return [:] }
        return [Self.cpuPaintingVariable: "1"]
    }
}
