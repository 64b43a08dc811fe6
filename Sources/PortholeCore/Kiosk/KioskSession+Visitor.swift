// KioskSession's part for visitors who need more: More time, speech's longer idle time, the
// visitor controls and their reset for the next visitor.

extension KioskSession {
    /// The visitor controls as they should look now.
    public var visitorCommand: KioskCommand {
        .applyVisitorControls(visitor, textScale: visitor.textScale(accessibility.largeTextScale))
    }

    /// More time is input, and keeps the next warning at least `more-time` away (or the idle
    /// timeout, if that is longer).
    mutating func moreTime(at now: Double) -> [KioskCommand] {
        idleCommands(idle.moreTime(at: now, seconds: accessibility.moreTime))
    }

    mutating func speechChanged(on: Bool) -> [KioskCommand] {
        isSpeechOn = on
        idle.factor = on ? accessibility.idleFactorWithSpeech : 1
        return []
    }

    mutating func visitorControl(_ control: VisitorControl) -> [KioskCommand] {
        visitor.toggle(control)
        return [visitorCommand]
    }

    /// The next visitor starts with the configured controls; nothing to do when they are so.
    mutating func resetVisitorControls() -> [KioskCommand] {
        guard visitor != accessibility.visitorDefaults else { return [] }
        visitor = accessibility.visitorDefaults
        return [visitorCommand]
    }
}
