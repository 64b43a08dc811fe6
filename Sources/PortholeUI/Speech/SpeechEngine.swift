// The voice: espeak-ng's library in Porthole's own process, on its own thread, speaking to the
// sound card or, for tests and the benchmark, into WAV files.
import CEspeakNG
import Dispatch
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

/// espeak-ng, which is one engine per process (its state is global and not thread-safe): every
/// window speaks through `shared`, and every espeak-ng call runs on the engine's own thread, so
/// the main thread never waits for a voice's dictionary to load (up to 0.4 s for Mandarin or
/// Russian from a cold disk) or for a long text to be synthesized. Chosen over speech-dispatcher
/// because a kiosk under cage has no user session to run speechd in (it autospawns, but without
/// a sound server it waits forever), and because in process the first samples come within a few
/// milliseconds of the key (docs/accessibility.md has the measurements).
@MainActor
public final class SpeechEngine {
    public static let shared = SpeechEngine()

    private let worker = EspeakWorker()
    /// Whether espeak-ng plays (true) or hands samples back (false): the first output asked
    /// for is the process's (espeak_Terminate, like espeak_Cancel, waits for a playback thread
    /// the synchronous mode never starts, so the two cannot be swapped in a running process).
    private var plays: Bool?

    /// What an utterance left behind in the files output: the WAV and how many samples it holds.
    public struct Audio: Sendable {
        public var file: String
        public var samples: Int
    }

    /// Reads `voices`' dictionaries and espeak-ng's phoneme data on the engine thread, before
    /// anyone asks for speech, so their first words do not wait for the disk (reading Russian's
    /// 2 MB dictionary from a cold disk took 100 ms here, from the cache 3 ms). Only files are
    /// read: espeak-ng itself starts with the first utterance, in the output that one asks for.
    public func preload(voices: [String]) {
        worker.queue.async { [worker] in worker.warm(voices) }
    }

    /// Says `utterance` at `wordsPerMinute` into `output`, cutting off what was being said
    /// unless `queued`. Returns at once; `done` gets the files output's WAV on the main thread,
    /// in the order the utterances were asked for. `firstSamples` (the benchmark's) runs on the
    /// engine thread with the monotonic time (ns) the first samples were ready (files output only).
    public func say(_ utterance: Utterance, wordsPerMinute: Int, output: SpeechOutput, queued: Bool = false,
                    firstSamples: (@Sendable (UInt64) -> Void)? = nil,
                    done: @escaping @Sendable @MainActor (Audio?) -> Void = { _ in }) {
        guard accepts(output) else { return }
        worker.queue.async { [worker] in
            let audio = worker.say(utterance, wordsPerMinute: wordsPerMinute, output: output, queued: queued, firstSamples: firstSamples)
            MainLoop.post { done(audio) }
        }
    }

    /// espeak-ng's data directory, where its voices' dictionaries are (nil without the library).
    public nonisolated static var dataDirectory: String? { EspeakLibrary.dataDirectoryWithoutLoading() ?? EspeakLibrary.shared?.dataDirectory }

    /// Cuts off what the speakers are saying (on the engine thread, after what was asked before).
    public func stop() {
        guard plays == true else { return }
        worker.queue.async { [worker] in worker.cancel() }
    }

    /// Whether espeak-ng runs (or will run) in `output`'s mode; the first output asked for sets it.
    private func accepts(_ output: SpeechOutput) -> Bool {
        let wantsPlayback = output == .speakers
        if let plays {
            if plays != wantsPlayback { Log.warning("speech keeps its first output: \(plays ? "speakers" : "files")", fields: ["PORTHOLE_EVENT": "speech-problem"]) }
            return plays == wantsPlayback
        }
        plays = wantsPlayback
        worker.queue.async { [worker] in worker.start(playback: wantsPlayback) }
        return true
    }
}

/// espeak-ng's state and every call into it. An `@unchecked Sendable` whose invariant is one
/// thread at a time: every method runs on `queue` (a serial queue), and nothing else touches it.
private final class EspeakWorker: @unchecked Sendable {
    let queue = DispatchQueue(label: "porthole-speech", qos: .userInitiated)
    /// espeak_Initialize's answer: its sample rate, 0 when it did not start.
    private var sampleRate: Int32 = 0
    private var playback = false
    private var voice: String?
    private var wordsPerMinute: Int32 = 0
    private var fileNumber = 0
    /// The voices whose files `warm` has read (once per process is enough for the disk cache).
    private var warmed: Set<String> = []
    /// The library, opened by the first call that needs it (on this thread, not the main one).
    private var espeak: EspeakLibrary? { EspeakLibrary.shared }

    func start(playback: Bool) {
        self.playback = playback
        guard let espeak else { return }
        sampleRate = espeak.initialize(playback ? AUDIO_OUTPUT_PLAYBACK : AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, 0)
        guard sampleRate > 0 else {
            Log.warning("espeak-ng did not start (its data missing?): no speech", fields: ["PORTHOLE_EVENT": "speech-problem"])
            return
        }
        if !playback { espeak.setSynthCallback(Self.collect) }
    }

    func cancel() {
        if sampleRate > 0 { _ = espeak?.cancel() }
    }

    /// Reads the files `voices` need into the disk cache (espeak_Info only says where they are).
    func warm(_ voices: [String]) {
        let voices = voices.filter { !warmed.contains($0) }
        guard !voices.isEmpty else { return }
        warmed.formUnion(voices)
        // Found without opening espeak-ng where it can be: a window that never speaks loads none
        // of its libraries; the library's own file is read too, for the first utterance's open.
        guard let directory = SpeechEngine.dataDirectory else { return }
        var files = ["phontab", "phonindex", "phondata", "intonations"].map { directory + "/" + $0 }
        let dictionaries = voices.map { voice -> String in
            let language = voice.split(separator: "-").first.map(String.init) ?? voice
            return language + "_dict"
        }
        files += dictionaries.map { directory + "/" + $0 }
        if let library = EspeakLibrary.libraryFile(besides: directory) { files.append(library) }
        for name in files {
            guard let file = fopen(name, "rb") else { continue }
            var buffer = [UInt8](repeating: 0, count: 65536)
            while fread(&buffer, 1, buffer.count, file) == buffer.count {}
            fclose(file)
        }
    }

    func say(_ utterance: Utterance, wordsPerMinute: Int, output: SpeechOutput, queued: Bool,
             firstSamples: (@Sendable (UInt64) -> Void)?) -> SpeechEngine.Audio? {
        guard sampleRate > 0, let espeak else { return nil }
        // In the files output every utterance is done by the time the next starts, and
        // espeak_Cancel would wait for a playback thread that never runs.
        if playback, !queued { _ = espeak.cancel() }
        use(utterance.voice, espeak)
        if self.wordsPerMinute != Int32(wordsPerMinute) {
            _ = espeak.setParameter(espeakRATE, Int32(wordsPerMinute), 0)
            self.wordsPerMinute = Int32(wordsPerMinute)
        }
        guard case .files(let directory) = output else {
            synthesize(utterance.text, into: nil, espeak)
            return nil
        }
        let samples = SampleBuffer(firstSamples)
        synthesize(utterance.text, into: samples, espeak)
        fileNumber += 1
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/speech-\(getpid())-\(fileNumber).wav"
        guard FileManager.default.createFile(atPath: path, contents: samples.wav(sampleRate: Int(sampleRate))) else {
            Log.warning("cannot write \(path)", fields: ["PORTHOLE_EVENT": "speech-problem"])
            return nil
        }
        return SpeechEngine.Audio(file: path, samples: samples.samples.count)
    }

    /// Makes `name` the current voice (loading its dictionary when it is not the current one).
    private func use(_ name: String, _ espeak: EspeakLibrary) {
        guard voice != name else { return }
        if espeak.setVoiceByName(name) != EE_OK {
            Log.warning("espeak-ng has no voice \(name)", fields: ["PORTHOLE_EVENT": "speech-problem"])
            _ = espeak.setVoiceByName("en")
        }
        voice = name
        wordsPerMinute = 0  // a new voice starts at its own rate
    }

    /// Synthesizes `text`: at once into `samples` (synchronous mode), or queued for the speakers.
    private func synthesize(_ text: String, into samples: SampleBuffer?, _ espeak: EspeakLibrary) {
        let data = samples.map { Unmanaged.passUnretained($0).toOpaque() }
        let status = text.withCString { pointer in
            espeak.synth(pointer, strlen(pointer) + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, data)
        }
        if status != EE_OK { Log.warning("espeak-ng refused to speak (\(status.rawValue))", fields: ["PORTHOLE_EVENT": "speech-problem"]) }
    }

    /// The synchronous mode's callback: runs inside `espeak_Synth`, on the engine thread, with the
    /// utterance's SampleBuffer as every event's user data.
    private static let collect: EspeakLibrary.SynthCallback = { wav, count, events in
        guard let wav, count > 0, let data = events?.pointee.user_data else { return 0 }
        let buffer = Unmanaged<SampleBuffer>.fromOpaque(data).takeUnretainedValue()
        if buffer.samples.isEmpty, let first = buffer.firstSamples { first(DispatchTime.now().uptimeNanoseconds) }
        buffer.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count)))
        return 0
    }
}

/// One utterance's samples (16-bit mono), written by the synthesis callback on the engine thread.
private final class SampleBuffer {
    var samples: [Int16] = []
    let firstSamples: (@Sendable (UInt64) -> Void)?

    init(_ firstSamples: (@Sendable (UInt64) -> Void)?) { self.firstSamples = firstSamples }

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
