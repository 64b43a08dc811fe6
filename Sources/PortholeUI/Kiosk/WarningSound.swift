// The idle warning's sound: a short tone, so a visitor who is not looking hears the warning too.
import CGStreamer
import Dispatch
import GLibBridge

/// Plays a 0.4 s tone through GStreamer. GStreamer rather than libcanberra or GDK's beep: WebKitGTK
/// already depends on it and on its base and good plugins (for page media), so a kiosk needs no
/// new package, no sound theme (canberra plays a theme's "dialog-warning", which a kiosk image
/// seldom has) and no sound file; `gdk_display_beep` is the X bell, silent on most machines.
/// `autoaudiosink` finds PipeWire, PulseAudio or ALSA, whichever the kiosk's session has.
@MainActor
final class WarningSound {
    /// 880 Hz for 8 × 50 ms, quiet enough not to startle.
    static let tone = "audiotestsrc wave=sine freq=880 volume=0.4 samplesperbuffer=2205 num-buffers=8 ! audioconvert ! audioresample"
    /// Where the tone goes: `autoaudiosink`, or a test's `wavenc ! filesink location=…`.
    private let sink: String
    private var pipeline: UnsafeMutablePointer<GstElement>?
    private var bus: UnsafeMutablePointer<GstBus>?
    private let connections = SignalConnections()
    /// Tones asked for, and tones played to the end (or failed), for the log and tests.
    private(set) var started = 0
    private(set) var finished = 0
    /// Counts `play` and `stop` calls: a tone waiting for GStreamer to start is played only if
    /// nothing asked for another one or for silence meanwhile.
    private var request = 0

    init(sink: String) { self.sink = sink }

    private enum Start { case notStarted, starting, done(available: Bool) }
    /// GStreamer's start, once for the process. Its first start in a user's cache reads every
    /// plugin to build the registry (and a test's throwaway XDG_CACHE_HOME has none): seconds on
    /// a cold or busy machine. It runs on a worker thread, so the warning is drawn (and input
    /// handled) meanwhile; the tone follows when GStreamer is up.
    private static var start = Start.notStarted
    private static var waiting: [@MainActor (Bool) -> Void] = []

    /// Runs `work` with whether GStreamer started (false, logged, where it cannot), starting it
    /// the first time.
    private static func whenStarted(_ work: @escaping @MainActor (Bool) -> Void) {
        switch start {
        case .done(let available): return work(available)
        case .starting: return waiting.append(work)
        case .notStarted: break
        }
        start = .starting
        waiting.append(work)
        DispatchQueue.global(qos: .userInitiated).async {
            var error: UnsafeMutablePointer<GError>?
            let available = gst_init_check(nil, nil, &error) != 0
            let message = error.map { String(cString: $0.pointee.message) } ?? ""
            if let error { g_error_free(error) }
            MainLoop.post {
                if !available { Log.warning("no idle warning sound: GStreamer did not start: \(message)") }
                start = .done(available: available)
                let works = waiting
                waiting = []
                for work in works { work(available) }
            }
        }
    }

    /// Plays the tone from its start (a tone still playing is cut off), once GStreamer is up.
    func play() {
        stop()
        started += 1
        let asked = request
        Self.whenStarted { [weak self] available in
            guard let self, self.request == asked else { return }
            guard available else { return self.finished += 1 }
            self.startTone()
        }
    }

    private func startTone() {
        var error: UnsafeMutablePointer<GError>?
        guard let element = gst_parse_launch("\(Self.tone) ! \(sink)", &error) else {
            Log.warning("no idle warning sound: \(error.map { String(cString: $0.pointee.message) } ?? "")")
            if let error { g_error_free(error) }
            finished += 1
            return
        }
        gst_object_ref_sink(UnsafeMutableRawPointer(element))
        pipeline = element
        if let bus = gst_element_get_bus(element) {
            self.bus = bus
            gst_bus_add_signal_watch(bus)
            let object = UnsafeMutableRawPointer(bus)
            connections.connect(object, "message::eos", .pointer { [unowned self] _ in self.ended(nil) })
            connections.connect(object, "message::error", .pointer { [unowned self] message in
                var error: UnsafeMutablePointer<GError>?
                if let message { gst_message_parse_error(message.assumingMemoryBound(to: GstMessage.self), &error, nil) }
                self.ended(error.map { String(cString: $0.pointee.message) } ?? "error")
                if let error { g_error_free(error) }
            })
        }
        if gst_element_set_state(element, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE { ended("the audio output did not start") }
    }

    /// The tone ended or failed: the pipeline goes at the next turn of the main loop, outside
    /// the bus's signal emission.
    private func ended(_ failure: String?) {
        guard pipeline != nil else { return }
        finished += 1
        if let failure { Log.info("idle warning sound: \(failure)", fields: ["PORTHOLE_EVENT": "idle-sound-failed"]) }
        connections.disconnectAll()
        let ending = pipeline
        MainLoop.idle { [weak self] in if let self, self.pipeline == ending { self.stop() } }
    }

    func stop() {
        request += 1
        connections.disconnectAll()
        if let bus {
            gst_bus_remove_signal_watch(bus)
            gst_object_unref(UnsafeMutableRawPointer(bus))
            self.bus = nil
        }
        if let pipeline {
            gst_element_set_state(pipeline, GST_STATE_NULL)
            gst_object_unref(UnsafeMutableRawPointer(pipeline))
            self.pipeline = nil
        }
    }
}
