// Which espeak-ng voice speaks a language: Porthole's languages and the page's `lang`.

/// espeak-ng's voice for a BCP 47 tag. espeak-ng names voices by its own file names; the table
/// covers Porthole's six languages and their common regional tags, and otherwise the primary
/// subtag, which is espeak-ng's name for most of its 100-odd languages.
public enum SpeechVoice {
    /// Mandarin in either script: espeak-ng 1.51's `cmn` voice reads the pinyin its dictionary
    /// makes with English letter rules ("lian" as "lai-an"); `cmn-latn-pinyin` speaks it as
    /// Mandarin, Traditional and Simplified characters alike (checked with `espeak-ng -x`).
    static let mandarin = "cmn-latn-pinyin"

    /// The voice for `tag`, or nil when the tag is not a language (`und`, `zxx`, empty).
    public static func name(for tag: String) -> String? {
        let parts = tag.split(separator: "-").map { $0.lowercased() }
        guard let primary = parts.first, (2...3).contains(primary.count), !["und", "zxx", "mis", "mul"].contains(primary) else { return nil }
        let rest = Set(parts.dropFirst())
        switch primary {
        case "zh":
            // Cantonese where the region speaks it (Hong Kong, Macau) or the tag says so.
            if rest.contains("yue") || rest.contains("hk") || rest.contains("mo") { return "yue" }
            return mandarin
        case "cmn": return mandarin
        case "yue": return "yue"
        case "en": return rest.contains("us") ? "en-us" : "en"
        case "pt": return rest.contains("br") ? "pt-br" : "pt"
        case "nb", "no": return "nb"
        default: return primary
        }
    }
}
