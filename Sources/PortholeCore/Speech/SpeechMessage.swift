// What the page's speech script posts: an element to describe, or a live region that changed.

extension SpeechEvent {
    /// The speech script's message as an event: an element (`ElementDescription(message:)`), or a
    /// live region's change, `{"live": "polite" | "assertive", "text": …, "lang": …}`. Nil when it
    /// is neither (a page can post to the handler too; what it posts is at most said, never obeyed).
    public init?(scriptMessage message: String) {
        if let element = ElementDescription(message: message) {
            self = .described(element)
            return
        }
        guard let node = try? JSONReader.parse(Array(message.utf8)), case .object(let members) = node.value else { return nil }
        var politeness: String?
        var text: String?
        var language: String?
        for member in members {
            switch (member.name, member.value.value) {
            case ("live", .string(let value)): politeness = value
            case ("text", .string(let value)): text = value
            case ("lang", .string(let value)) where Localization.languageTagProblem(value) == nil: language = value
            default: continue
            }
        }
        guard let politeness, politeness == "polite" || politeness == "assertive", let text else { return nil }
        // A region that fills with a whole article is not read to its end.
        let clipped = String(text.split(whereSeparator: \.isWhitespace).joined(separator: " ").prefix(1000))
        self = .liveRegion(text: clipped, assertive: politeness == "assertive", language: language)
    }
}
