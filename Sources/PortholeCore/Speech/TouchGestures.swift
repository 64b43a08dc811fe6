// Touch as on phone screen readers: a finger's touches in, taps, double and triple taps, long
// presses and exploring moves out, with time as an input.

/// A point on the web view, in its widget's pixels.
public struct TouchPoint: Sendable, Equatable {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    func distance(to other: TouchPoint) -> Double { ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot() }
}

/// What a touch screen reports (GTK's touch begin, update, end and cancel), and the timer the
/// recognizer asked for going off. `finger` tells touch sequences apart; times are monotonic seconds.
public enum TouchInput: Sendable, Equatable {
    case down(finger: Int, TouchPoint, at: Double)
    case move(finger: Int, TouchPoint, at: Double)
    case up(finger: Int, TouchPoint, at: Double)
    case cancel(finger: Int, at: Double)
    /// The wake-up asked for with `.wake(at:)` (or any later time).
    case tick(at: Double)
}

/// A recognized gesture, or the recognizer's timer.
public enum TouchGesture: Sendable, Equatable {
    /// A finger touched the screen (any touch stops "read the page").
    case touched
    /// One tap, said at once: speech says what is there.
    case tap(TouchPoint)
    /// Two taps, and no third within `tapGap`: speech activates what it said last.
    case doubleTap
    /// Three taps: speech on or off, as the speech key.
    case tripleTap
    /// A finger held still for `longPress`: starts speech without sight of the bar.
    case longPress(TouchPoint)
    /// A finger moving over the screen, beyond the tap's slop: speech says what is under it.
    case explore(TouchPoint)
    /// Feed `.tick` at this time (a long press or a double tap may be due then).
    case wake(at: Double)
}

/// The recognizer: one finger at a time (a second finger's touches are not a gesture). A tap is
/// a touch lifted within `tapTime` that moved at most `slop`; taps follow each other when the
/// next touch comes within `tapGap` of the last lift. The first tap is said at once (no waiting
/// to see whether a second follows: a visitor exploring hears every tap); the second waits
/// `tapGap` for a third, which makes it a triple tap instead of a double.
public struct TouchGestures: Sendable, Equatable {
    /// Longest touch that is still a tap.
    public static let tapTime = 0.5
    /// Longest pause between one tap's lift and the next touch for them to count together:
    /// TalkBack's and VoiceOver's double tap intervals are about 0.3 to 0.5 s.
    public static let tapGap = 0.4
    /// How long a finger held still is a long press (Android's long press is 0.5 s; longer here,
    /// so a visitor resting a finger to read does not start speech by accident).
    public static let longPress = 0.8
    /// How far a finger may drift (widget pixels) and still be a tap or a long press.
    public static let slop = 24.0

    private struct Press: Sendable, Equatable {
        var finger: Int
        var start: TouchPoint
        var downAt: Double
        var moved = false
        var longPressed = false
    }

    private var press: Press?
    /// Other fingers down while `press` is: the touch is no gesture.
    private var otherFingers: Set<Int> = []
    private var spoiled = false
    /// Taps so far in this run, and when the last one lifted.
    private var taps = 0
    private var lastUp: Double?

    public init() {}

    public mutating func handle(_ input: TouchInput) -> [TouchGesture] {
        switch input {
        case .down(let finger, let point, let time):
            if press != nil {
                otherFingers.insert(finger)
                spoiled = true
                taps = 0
                return []
            }
            var out: [TouchGesture] = [.touched]
            // A pending double tap is overtaken by this touch: it may be the third.
            if let lastUp, time - lastUp > Self.tapGap {
                if taps == 2 { out.append(.doubleTap) }
                taps = 0
            }
            if lastUp == nil { taps = 0 }
            press = Press(finger: finger, start: point, downAt: time)
            spoiled = false
            out.append(.wake(at: time + Self.longPress))
            return out
        case .move(let finger, let point, _):
            guard var current = press, current.finger == finger, !spoiled else { return [] }
            if !current.moved, point.distance(to: current.start) <= Self.slop { return [] }
            current.moved = true
            press = current
            taps = 0
            lastUp = nil
            return current.longPressed ? [] : [.explore(point)]
        case .up(let finger, let point, let time):
            if otherFingers.remove(finger) != nil { return [] }
            guard let current = press, current.finger == finger else { return [] }
            press = nil
            let isTap = !spoiled && otherFingers.isEmpty && !current.moved && !current.longPressed
                && time - current.downAt <= Self.tapTime && point.distance(to: current.start) <= Self.slop
            spoiled = spoiled && !otherFingers.isEmpty
            guard isTap else {
                taps = 0
                lastUp = nil
                return []
            }
            taps += 1
            lastUp = time
            switch taps {
            case 1: return [.tap(current.start)]
            case 2: return [.wake(at: time + Self.tapGap)]
            default:
                taps = 0
                lastUp = nil
                return [.tripleTap]
            }
        case .cancel(let finger, _):
            if otherFingers.remove(finger) != nil { return [] }
            guard press?.finger == finger else { return [] }
            press = nil
            taps = 0
            lastUp = nil
            return []
        case .tick(let time):
            var out: [TouchGesture] = []
            if var current = press, !spoiled, !current.moved, !current.longPressed, time >= current.downAt + Self.longPress {
                current.longPressed = true
                press = current
                taps = 0
                lastUp = nil
                out.append(.longPress(current.start))
            }
            if press == nil, taps == 2, let lastUp, time >= lastUp + Self.tapGap {
                taps = 0
                self.lastUp = nil
                out.append(.doubleTap)
            }
            return out
        }
    }
}
