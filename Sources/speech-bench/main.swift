// speech-bench: how long the read-aloud mode takes from the speech key to its first audio, per
// language, as Porthole runs it: the key's SpeechSession.handle(.toggle), espeak-ng's voice for
// the utterance, and espeak_Synth until its first buffer of samples (what the playback output
// hands the sound server first). Run in release: swift run -c release speech-bench [--markdown FILE]
import CEspeakNG
import Foundation
import PortholeCore

/// The time of the first samples of the utterance being measured (0: none yet). Written by the
/// synthesis callback, which runs inside espeak_Synth on this thread (the synchronous mode).
final class FirstSamples {
    var at: UInt64 = 0
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

let collect: @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutablePointer<espeak_EVENT>?) -> Int32 = { _, count, events in
    guard count > 0, let data = events?.pointee.user_data else { return 0 }
    let first = Unmanaged<FirstSamples>.fromOpaque(data).takeUnretainedValue()
    if first.at == 0 { first.at = now() }
    return 0
}

let arguments = CommandLine.arguments
let markdownPath = arguments.firstIndex(of: "--markdown").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
let rounds = 30
guard espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, 0) > 0 else {
    FileHandle.standardError.write(Data("speech-bench: espeak-ng did not start\n".utf8))
    exit(1)
}
espeak_SetSynthCallback(collect)
if let directory = Localization.localeDirectory() { Localization.setUp(directory: directory) }

/// Milliseconds from the key to the first samples: `cold` with the voice not loaded (the first
/// utterance after another language's), then the median and worst of `rounds` in a row. With
/// `page`, what is measured is a link in that `lang` getting focus (Cantonese has no catalog:
/// a Hong Kong page is spoken with `yue` in a window in English).
func measure(_ language: String, page: String? = nil) -> (voice: String, text: String, cold: Double, median: Double, worst: Double) {
    Localization.use(languages: [language])
    let interface = Localization.activeLanguage()
    var times: [Double] = []
    var voice = ""
    var text = ""
    for _ in 0...rounds {
        let first = FirstSamples()
        let start = now()
        var session = SpeechSession(interfaceLanguage: interface)
        var commands = session.handle(.toggle)
        if let page { commands = session.handle(.described(ElementDescription(role: "link", name: "開放時間", language: page))) }
        guard case .say(let utterance) = commands.first else { break }
        if utterance.voice != voice { _ = espeak_SetVoiceByName(utterance.voice) }
        espeak_SetParameter(espeakRATE, Int32(SpeechSettings().wordsPerMinute), 0)
        let data = Unmanaged.passUnretained(first).toOpaque()
        _ = utterance.text.withCString { espeak_Synth($0, strlen($0) + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, data) }
        times.append(Double(first.at > start ? first.at - start : 0) / 1_000_000)
        voice = utterance.voice
        text = utterance.text
    }
    let cold = times.first ?? 0
    let warm = times.dropFirst().sorted()
    return (voice, text, cold, warm.isEmpty ? 0 : warm[warm.count / 2], warm.last ?? 0)
}

var lines = ["| Language | Voice | Said | First audio, voice not loaded | Median of \(rounds) | Worst |",
             "|---|---|---|---:|---:|---:|"]
for (language, page) in [("en", nil), ("de", nil), ("fr", nil), ("es", nil), ("ru", nil), ("zh-TW", nil), ("zh-CN", nil), ("en", "zh-HK")] {
    let result = measure(language, page: page)
    let name = page.map { "\(language), a \($0) page" } ?? language
    lines.append(String(format: "| %@ | %@ | %@ | %.1f ms | %.1f ms | %.1f ms |", name, result.voice, result.text,
                        result.cold, result.median, result.worst))
}
let table = lines.joined(separator: "\n") + "\n"
print(table, terminator: "")
if let markdownPath { try? table.write(toFile: markdownPath, atomically: true, encoding: .utf8) }
espeak_Terminate()
