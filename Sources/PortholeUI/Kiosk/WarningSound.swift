// The idle warning's sound: a short tone, so a visitor who is not looking hears the warning too.
import CGStreamer
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
    /// Tones started, and tones played to the end (or failed), for the log and tests.
    private(set) var started = 0
    private(set) var finished = 0

    init(sink: String) { self.sink = sink }

    /// GStreamer once for the process; false (logged) where it cannot start.
    private static let isAvailable: Bool = {
        var error: UnsafeMutablePointer<GError>?
        guard gst_init_check(nil, nil, &error) != 0 else {
            Log.warning("no idle warning sound: GStreamer did not start: \(error.map { String(cString: $0.pointee.message) } ?? "")")
            if let error { g_error_free(error) }
            return false
        }
        return true
    }()

    /// Plays the tone from its start (a tone still playing is cut off).
    func play() {
        stop()
        guard Self.isAvailable else { return }
        var error: UnsafeMutablePointer<GError>?
        guard let element = gst_parse_launch("\(Self.tone) ! \(sink)", &error) else {
            Log.warning("no idle warning sound: \(error.map { String(cString: $0.pointee.message) } ?? "")")
            if let error { g_error_free(error) }
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
        started += 1
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
