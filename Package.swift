// swift-tools-version:6.0
// Porthole: a site-restricted desktop browser in Swift on GTK 3 and WebKitGTK.
import PackageDescription

let package = Package(
    name: "Porthole",
    products: [
        .executable(name: "porthole", targets: ["porthole"]),
        // The web process extension WebKit loads into every web process (the second layer), with
        // the browser's own code beside it: the installed `porthole` is a C launcher that calls
        // into this library, so the UI process and every web process map one copy of the Swift
        // runtime (launcher/porthole.c).
        .library(name: "PortholeWebExtension", type: .dynamic, targets: ["PortholeWebExtension", "PortholeApp"]),
    ],
    targets: [
        // C seams: one system library per C dependency layer.
        .systemLibrary(name: "CGLib", path: "Sources/CGLib", pkgConfig: "gio-2.0",
                       providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(name: "CWebKitGtk", path: "Sources/CWebKitGtk", pkgConfig: "webkit2gtk-4.1",
                       providers: [.apt(["libgtk-3-dev", "libwebkit2gtk-4.1-dev"])]),

        // The idle warning's sound (GStreamer is WebKitGTK's own media stack).
        .systemLibrary(name: "CGStreamer", path: "Sources/CGStreamer", pkgConfig: "gstreamer-1.0",
                       providers: [.apt(["libgstreamer1.0-dev"])]),
        .systemLibrary(name: "CWebKitWebExtension", path: "Sources/CWebKitWebExtension",
                       pkgConfig: "webkit2gtk-web-extension-4.1", providers: [.apt(["libwebkit2gtk-4.1-dev"])]),

        // Speech: espeak-ng's library, in process (no daemon for a kiosk session to run). Its
        // header only: the library is opened when speech is first needed (EspeakLibrary), not
        // linked, so a start without speech loads none of its 16 libraries.
        .systemLibrary(name: "CEspeakNG", path: "Sources/CEspeakNG", providers: [.apt(["libespeak-ng-dev"])]),

        // dladdr: which loaded file defines a symbol (the Swift runtime's, GLib's directory).
        .systemLibrary(name: "CDynamicLoader", path: "Sources/CDynamicLoader"),
        // Mesa's GL driver loaded ahead on another thread, in the UI process (C, built with the GNU
        // extensions it needs, which no Swift module's headers then see).
        .target(name: "GLDriverPreload", dependencies: ["BackgroundTask"]),
        // fontconfig's configuration loaded ahead on another thread, in each web process.
        .target(name: "FontConfigPreload", dependencies: ["BackgroundTask"], linkerSettings: [.linkedLibrary("fontconfig")]),
        // Work run once on a detached thread and waited for: what the two preloads share.
        .target(name: "BackgroundTask"),
        // The static Swift runtime's command line, read on first use instead of by a constructor
        // that reads /proc/self/maps whenever the library is loaded (include/ProcessArguments.h).
        .target(name: "ProcessArguments", dependencies: ["CGLib"]),

        // GObject ownership, signal connections, main-loop hops. Knows no WebKit.
        .target(name: "GLibBridge", dependencies: ["CGLib"]),
        // Decisions: site list, filters, policy, pages. Imports no GTK and no WebKit.
        .target(name: "PortholeCore", dependencies: ["CGLib"]),
        // The representable bridge, the WebView and its Coordinator, the window.
        .target(name: "PortholeUI", dependencies: ["CWebKitGtk", "CGStreamer", "CEspeakNG", "CDynamicLoader", "GLDriverPreload", "GLibBridge", "PortholeCore"]),
        // Runs inside each web process: refuses requests the site policy blocks before they leave.
        .target(name: "PortholeWebExtension", dependencies: ["CWebKitWebExtension", "FontConfigPreload", "GLibBridge", "PortholeCore", "ProcessArguments"]),
        // GtkApplication, command line, wiring: the `porthole` command's code.
        .target(name: "PortholeApp", dependencies: ["PortholeUI", "PortholeCore", "GLibBridge", "CGLib", "CWebKitGtk"],
                path: "Sources/porthole"),
        // The development build's `porthole`: PortholeApp linked in (the installed one is the launcher).
        .executableTarget(name: "porthole", dependencies: ["PortholeApp"], path: "Sources/porthole-main"),
        // The developer tools' seeded random numbers (SplitMix64), one copy for both.
        .target(name: "SeededRandom"),
        // Policy speed: decisions per second and compile time at 10 to 100,000 filters (make bench).
        .executableTarget(name: "policy-bench", dependencies: ["PortholeCore", "SeededRandom"], path: "Sources/policy-bench"),
        // The read-aloud mode's time from the speech key to the first audio, per language (make bench).
        .executableTarget(name: "speech-bench", dependencies: ["PortholeCore", "PortholeUI", "GLibBridge"], path: "Sources/speech-bench"),
        // Mutated configuration files and Chrome policy folders, loaded as Porthole does (make fuzz).
        .executableTarget(name: "config-fuzz", dependencies: ["PortholeCore", "SeededRandom"], path: "Sources/config-fuzz"),

        .testTarget(name: "PortholeCoreTests", dependencies: ["PortholeCore"]),
        .testTarget(name: "GLibBridgeTests", dependencies: ["GLibBridge", "CGLib"]),
        // Test helpers: a SoupServer on 127.0.0.1 (also an HTTP proxy for real host names), the
        // test application, synthesized input, main-loop waits.
        .target(name: "TestSupport", dependencies: ["CWebKitGtk", "GLibBridge", "PortholeUI", "PortholeCore"],
                path: "Tests/TestSupport"),
        .testTarget(name: "PortholeUITests", dependencies: ["TestSupport", "PortholeUI", "PortholeCore", "GLibBridge", "CWebKitGtk", "FontConfigPreload", "GLDriverPreload", "ProcessArguments"]),
    ],
    swiftLanguageModes: [.v6]
)
