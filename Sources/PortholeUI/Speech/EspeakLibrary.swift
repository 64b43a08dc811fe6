// espeak-ng's library, opened the first time speech needs it rather than linked: a linked
// libespeak-ng brings 16 libraries (PulseAudio's, pcaudiolib, libsndfile and its codecs) into
// every start, 12 % of the dynamic loader's start-up work (2.5 M cycles) and 1.1 MB of the UI
// process's PSS, on every desk and kiosk whose visitors never turn speech on (issue 26,
// docs/performance-choices.md).
import CEspeakNG
import CDynamicLoader
import CGLib
import Glibc
import GLibBridge

/// The seven espeak-ng calls Porthole makes, resolved from `libespeak-ng.so.1` (the SONAME the
/// Debian package libespeak-ng1 ships, which the .deb depends on).
struct EspeakLibrary: Sendable {
    typealias SynthCallback = @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutablePointer<espeak_EVENT>?) -> Int32

    let initialize: @Sendable @convention(c) (espeak_AUDIO_OUTPUT, Int32, UnsafePointer<CChar>?, Int32) -> Int32
    let setSynthCallback: @Sendable @convention(c) (SynthCallback?) -> Void
    let info: @Sendable @convention(c) (UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> UnsafePointer<CChar>?
    let setVoiceByName: @Sendable @convention(c) (UnsafePointer<CChar>?) -> espeak_ERROR
    let setParameter: @Sendable @convention(c) (espeak_PARAMETER, Int32, Int32) -> espeak_ERROR
    let synth: @Sendable @convention(c) (UnsafeRawPointer?, Int, UInt32, espeak_POSITION_TYPE, UInt32, UInt32,
                                         UnsafeMutablePointer<UInt32>?, UnsafeMutableRawPointer?) -> espeak_ERROR
    let cancel: @Sendable @convention(c) () -> espeak_ERROR

    static let soname = "libespeak-ng.so.1"

    /// The library, opened once per process (on whichever thread asks first; dlopen is
    /// thread-safe and Swift runs a global's initializer once); nil, logged once, where it
    /// cannot be opened or lacks a call: then there is no speech, and the browser runs on.
    static let shared: EspeakLibrary? = open()

    private static func open() -> EspeakLibrary? {
        guard let handle = dlopen(soname, RTLD_LAZY | RTLD_LOCAL) else {
            problem("cannot open \(soname): \(dlerror().map { String(cString: $0) } ?? "unknown error")")
            return nil
        }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            guard let address = dlsym(handle, name) else {
                problem("\(soname) has no \(name)")
                return nil
            }
            return unsafeBitCast(address, to: type)
        }
        // The types are those of speak_lib.h's declarations, which the build's header checks.
        guard let initialize = symbol("espeak_Initialize", as: (@Sendable @convention(c) (espeak_AUDIO_OUTPUT, Int32, UnsafePointer<CChar>?, Int32) -> Int32).self),
              let setSynthCallback = symbol("espeak_SetSynthCallback", as: (@Sendable @convention(c) (SynthCallback?) -> Void).self),
              let info = symbol("espeak_Info", as: (@Sendable @convention(c) (UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> UnsafePointer<CChar>?).self),
              let setVoiceByName = symbol("espeak_SetVoiceByName", as: (@Sendable @convention(c) (UnsafePointer<CChar>?) -> espeak_ERROR).self),
              let setParameter = symbol("espeak_SetParameter", as: (@Sendable @convention(c) (espeak_PARAMETER, Int32, Int32) -> espeak_ERROR).self),
              let synth = symbol("espeak_Synth", as: (@Sendable @convention(c) (UnsafeRawPointer?, Int, UInt32, espeak_POSITION_TYPE, UInt32, UInt32,
                                                                                  UnsafeMutablePointer<UInt32>?, UnsafeMutableRawPointer?) -> espeak_ERROR).self),
              let cancel = symbol("espeak_Cancel", as: (@Sendable @convention(c) () -> espeak_ERROR).self)
        else { return nil }
        return EspeakLibrary(initialize: initialize, setSynthCallback: setSynthCallback, info: info,
                             setVoiceByName: setVoiceByName, setParameter: setParameter, synth: synth, cancel: cancel)
    }

    private static func problem(_ message: String) {
        Log.warning("\(message): no speech", fields: ["PORTHOLE_EVENT": "speech-problem", "PORTHOLE_LIBRARY": soname])
    }

    /// espeak-ng's data directory (its voices' dictionaries), as the library says.
    var dataDirectory: String? {
        var path: UnsafePointer<CChar>?
        _ = info(&path)
        return path.map { String(cString: $0) }
    }

    /// Where espeak-ng will read its data, found without opening the library, so that warming
    /// the disk cache for a window's voice loads none of it: `$ESPEAK_DATA_PATH/espeak-ng-data`
    /// where that is set (as espeak-ng itself reads it), else `espeak-ng-data` beside the
    /// libraries the process already has (GLib's directory: Debian puts both in
    /// /usr/lib/<multiarch>/). Nil where neither exists: then the library is asked.
    static func dataDirectoryWithoutLoading() -> String? {
        var candidates: [String] = []
        if let variable = getenv("ESPEAK_DATA_PATH") { candidates.append(String(cString: variable) + "/espeak-ng-data") }
        if let file = porthole_object_file_defining("g_main_loop_new") { candidates.append(directory(of: String(cString: file)) + "/espeak-ng-data") }
        return candidates.first { access($0 + "/phontab", R_OK) == 0 }
    }

    /// The library's own file, beside its data on Debian (nil where it is not there).
    static func libraryFile(besides dataDirectory: String) -> String? {
        let file = directory(of: dataDirectory) + "/" + soname
        return access(file, R_OK) == 0 ? file : nil
    }

    /// GLib's dirname of `path`.
    private static func directory(of path: String) -> String {
        let directory = g_path_get_dirname(path)!
        defer { g_free(directory) }
        return String(cString: directory)
    }
}
