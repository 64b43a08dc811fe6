// The voice: espeak-ng's library in Porthole's own process, speaking to the sound card or, for
// tests and the benchmark, into WAV files.
import CEspeakNG
import FoundationEssentials
import GLibBridge
import Glibc
import PortholeCore

/// Where speech goes.
public enum SpeechOutput: Sendable, Equatable {
    /// The sound card, through espeak-ng's own audio output (PulseAudio or PipeWire's, else ALSA).
    case speakers
    /// One WAV file per utterance in `directory` (tests, `make bench`): the log entry names it.
    case files(directory: String)
}

/// espeak-ng, which is one engine per process (its state is global): every window speaks through
/// `shared`, on the main thread. Chosen over speech-dispatcher because a kiosk under cage has no
/// user session to run speechd in (it autospawns, but without a sound server it waits forever),
/// and because in process the first samples come within a few milliseconds of the key
/// (docs/accessibility.md has the measurements).
@MainActor
final class SpeechEngine {
    static let shared = SpeechEngine()

    /// Whether espeak-ng plays (true) or hands samples back (false); set once per process.
    private var plays: Bool?
    private var sampleRate: Int32 = 0
    private var voice: String?
    private var wordsPerMinute: Int32 = 0
    private var fileNumber = 0

    /// Says `utterance` at `wordsPerMinute` into `output`, cutting off what was being said.
    /// Returns the WAV file written (files output) and how many samples it holds.
    @discardableResult
    func say(_ utterance: Utterance, wordsPerMinute: Int, output: SpeechOutput) -> (file: String, samples: Int)? {
        guard prepare(output) else { return nil }
        stop()
        if voice != utterance.voice {
            if espeak_SetVoiceByName(utterance.voice) != EE_OK {
                Log.warning("espeak-ng has no voice \(utterance.voice)", fields: ["PORTHOLE_EVENT": "speech-problem"])
                _ = espeak_SetVoiceByName("en")
            }
            voice = utterance.voice
            self.wordsPerMinute = 0  // a new voice starts at its own rate
        }
        if self.wordsPerMinute != Int32(wordsPerMinute) {
            espeak_SetParameter(espeakRATE, Int32(wordsPerMinute), 0)
            self.wordsPerMinute = Int32(wordsPerMinute)
        }
        guard case .files(let directory) = output else {
            synthesize(utterance.text, into: nil)
            return nil
        }
        let samples = SampleBuffer()
        synthesize(utterance.text, into: samples)
        fileNumber += 1
        let path = directory + "/speech-\(getpid())-\(fileNumber).wav"
        guard FileManager.default.createFile(atPath: path, contents: samples.wav(sampleRate: Int(sampleRate))) else {
            Log.warning("cannot write \(path)", fields: ["PORTHOLE_EVENT": "speech-problem"])
            return nil
        }
        return (path, samples.samples.count)
    }

    /// Cuts off what the speakers are saying. In the files output every utterance is done by
    /// the time `say` returns, and espeak_Cancel would wait for a playback thread that never runs.
    func stop() {
        guard plays == true else { return }
        espeak_Cancel()
    }

    /// espeak-ng set up for `wanted`, once: its playback and synchronous modes cannot be swapped
    /// in a running process (espeak_Terminate, like espeak_Cancel, waits for a playback thread
    /// the synchronous mode never starts), so the first output a window asks for is the process's.
    private func prepare(_ wanted: SpeechOutput) -> Bool {
        let wantsPlayback = wanted == .speakers
        if case .files(let directory) = wanted {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        if let plays {
            if plays != wantsPlayback { Log.warning("speech keeps its first output: \(plays ? "speakers" : "files")", fields: ["PORTHOLE_EVENT": "speech-problem"]) }
            return plays == wantsPlayback
        }
        sampleRate = espeak_Initialize(wantsPlayback ? AUDIO_OUTPUT_PLAYBACK : AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, 0)
        guard sampleRate > 0 else {
            Log.warning("espeak-ng did not start (its data missing?): no speech", fields: ["PORTHOLE_EVENT": "speech-problem"])
            return false
        }
        if !wantsPlayback { espeak_SetSynthCallback(Self.collect) }
        plays = wantsPlayback
        return true
    }

    /// Synthesizes `text`: at once into `samples` (synchronous mode), or queued for the speakers.
    private func synthesize(_ text: String, into samples: SampleBuffer?) {
        let data = samples.map { Unmanaged.passUnretained($0).toOpaque() }
        let status = text.withCString { pointer in
            espeak_Synth(pointer, strlen(pointer) + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, data)
        }
        if status != EE_OK { Log.warning("espeak-ng refused to speak (\(status.rawValue))", fields: ["PORTHOLE_EVENT": "speech-problem"]) }
    }

    /// The synchronous mode's callback: runs inside `espeak_Synth`, on the main thread, with the
    /// utterance's SampleBuffer as every event's user data.
    private static let collect: @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutablePointer<espeak_EVENT>?) -> Int32 = { wav, count, events in
        guard let wav, count > 0, let data = events?.pointee.user_data else { return 0 }
        let buffer = Unmanaged<SampleBuffer>.fromOpaque(data).takeUnretainedValue()
        buffer.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count)))
        return 0
    }
}

/// One utterance's samples (16-bit mono), written by the synthesis callback.
private final class SampleBuffer {
    var samples: [Int16] = []

    /// A RIFF WAVE file of the samples (PCM, 16-bit, mono, little-endian).
    func wav(sampleRate: Int) -> Data {
        var data = Data()
        func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func append16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let bytes = UInt32(samples.count * 2)
        data.append(contentsOf: Array("RIFF".utf8)); append(36 + bytes); data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); append(16); append16(1); append16(1)
        append(UInt32(sampleRate)); append(UInt32(sampleRate * 2)); append16(2); append16(16)
        data.append(contentsOf: Array("data".utf8)); append(bytes)
        for sample in samples { append16(UInt16(bitPattern: sample)) }
        return data
    }
}
