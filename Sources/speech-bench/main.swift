// speech-bench: how long the read-aloud mode takes from the speech key to its first audio, per
// language, as Porthole runs it: the key's SpeechSession.handle(.toggle) on the main thread,
// SpeechEngine.say handing the utterance to the engine thread, that thread setting espeak-ng's
// voice (loading its dictionary when it is not the current one) and espeak_Synth until its first
// buffer of samples (what the playback output hands the sound server first). It also says how
// long the main thread was held: the key's handling until `say` returned.
// Run in release: swift run -c release speech-bench [--markdown FILE]
import Foundation
import GLibBridge
import PortholeCore
import PortholeUI

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
func milliseconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1_000_000 }

/// When the engine thread had the first samples (0: none yet).
final class FirstSamples: @unchecked Sendable {  // written on the engine thread, read after `done` on the main one
    private let lock = NSLock()
    private var time: UInt64 = 0
    var at: UInt64 {
        get { lock.withLock { time } }
        set { lock.withLock { time = newValue } }
    }
}

@MainActor
final class Flag {
    var isSet = false
}

let arguments = CommandLine.arguments
let markdownPath = arguments.firstIndex(of: "--markdown").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
let rounds = 30
let output = SpeechOutput.files(directory: NSTemporaryDirectory() + "porthole-speech-bench-\(getpid())")
if let directory = Localization.localeDirectory() { Localization.setUp(directory: directory) }

/// espeak-ng's data directory, where the voices' dictionaries are.
let dataDirectory = SpeechEngine.dataDirectory ?? "/usr/lib/x86_64-linux-gnu/espeak-ng-data"

/// Takes `voice`'s dictionary out of the disk cache (posix_fadvise DONTNEED: only this file's
/// clean pages, no root needed), so the next load of it reads the disk as a kiosk's first does.
func evict(_ voice: String) {
    let language = voice.split(separator: "-").first.map(String.init) ?? voice
    let descriptor = open(dataDirectory + "/" + language + "_dict", O_RDONLY)
    guard descriptor >= 0 else { return }
    _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_DONTNEED))
    close(descriptor)
}

/// One key press: (key to first samples, main thread held), in milliseconds.
@MainActor
func press(_ interface: String, page: String?, evicting: Bool) -> (first: Double, held: Double, utterance: Utterance)? {
    let first = FirstSamples()
    var session = SpeechSession(interfaceLanguage: interface)
    var commands = session.handle(.toggle)
    if let page { commands = session.handle(.described(ElementDescription(role: "link", name: "開放時間", language: page))) }
    guard case .say(let utterance) = commands.first else { return nil }
    if evicting { evict(utterance.voice) }
    let start = now()
    let finished = Flag()
    SpeechEngine.shared.say(utterance, wordsPerMinute: SpeechSettings().wordsPerMinute, output: output,
                            firstSamples: { time in first.at = time }, done: { audio in
        finished.isSet = true
        if let audio { try? FileManager.default.removeItem(atPath: audio.file) }
    })
    let held = now() - start
    MainLoop.iterate(timeout: 30) { finished.isSet }
    return (milliseconds(first.at > start ? first.at - start : 0), milliseconds(held), utterance)
}

/// The first utterance in `language` after another language's (its dictionary out of the disk
/// cache: `cold`), then the median and worst of `rounds` in a row, and the worst time the main
/// thread was held. With `page`, a link in that `lang` gets focus (Cantonese has no catalog: a
/// Hong Kong page is spoken with `yue` in a window in English).
@MainActor
func measure(_ language: String, page: String? = nil) -> (voice: String, text: String, cold: Double, median: Double, worst: Double, held: Double) {
    Localization.use(languages: [language])
    let interface = Localization.activeLanguage()
    // Another language first, so this one's voice is not the current one.
    _ = press(interface == "de" ? "fr" : "de", page: nil, evicting: false)
    guard let cold = press(interface, page: page, evicting: true) else { return ("", "", 0, 0, 0, 0) }
    var times: [Double] = []
    var held = cold.held
    for _ in 0..<rounds {
        guard let warm = press(interface, page: page, evicting: false) else { break }
        times.append(warm.first)
        held = max(held, warm.held)
    }
    times.sort()
    return (cold.utterance.voice, cold.utterance.text, cold.first, times.isEmpty ? 0 : times[times.count / 2], times.last ?? 0, held)
}

MainActor.assumeIsolated {
    // The process's very first utterance: espeak-ng starts (espeak_Initialize) on the engine thread.
    Localization.use(languages: ["en"])
    let start = press(Localization.activeLanguage(), page: nil, evicting: true)
    var lines = ["| Language | Voice | Said | First audio, voice not loaded, its dictionary not in the disk cache | Median of \(rounds) | Worst | Main thread held, worst |",
                 "|---|---|---|---:|---:|---:|---:|"]
    for (language, page) in [("en", nil), ("de", nil), ("fr", nil), ("es", nil), ("ru", nil), ("zh-TW", nil), ("zh-CN", nil), ("en", "zh-HK")] {
        let result = measure(language, page: page)
        let name = page.map { "\(language), a \($0) page" } ?? language
        lines.append(String(format: "| %@ | %@ | %@ | %.1f ms | %.1f ms | %.1f ms | %.2f ms |", name, result.voice, result.text,
                            result.cold, result.median, result.worst, result.held))
    }
    if let start {
        lines.append("")
        lines.append(String(format: "The process's first utterance (espeak-ng starting on the engine thread, English): %.1f ms to the first samples, the main thread held %.2f ms.",
                            start.first, start.held))
    }
    let table = lines.joined(separator: "\n") + "\n"
    print(table, terminator: "")
    if let markdownPath { try? table.write(toFile: markdownPath, atomically: true, encoding: .utf8) }
}
