// Owns one strong reference to a GObject and the signal handlers connected through it.
import CGLib

/// One owner per GObject: it holds one reference, remembers its handler ids, and on `release()`
/// disconnects the handlers that are still connected before dropping its reference.
@MainActor
public final class ObjectOwner {
    /// The owned object; nil after `release()`.
    public private(set) var pointer: UnsafeMutableRawPointer?
    private var handlerIDs: [UInt] = []

    /// Takes ownership of a floating reference (widgets) or adds a reference (plain objects).
    public init(sinking object: UnsafeMutableRawPointer) {
        g_object_ref_sink(object)
        pointer = object
    }

    /// The object as an opaque C pointer, for APIs whose types Swift imports as opaque.
    public var opaque: OpaquePointer? { pointer.map(OpaquePointer.init) }

    /// Adds a reference to an object someone else also owns.
    public init(retaining object: UnsafeMutableRawPointer) {
        g_object_ref(object)
        pointer = object
    }

    /// Takes over a full reference the caller already holds (a `transfer full` return value).
    public init(adopting object: UnsafeMutableRawPointer) {
        pointer = object
    }

    /// The object as a typed C pointer, for calls into C APIs.
    public func typed<T>(_ type: T.Type = T.self) -> UnsafeMutablePointer<T>? {
        pointer?.assumingMemoryBound(to: T.self)
    }

    /// Connects a handler whose box is released by the connection; the id is kept for release().
    @discardableResult
    public func connect(_ signal: String, _ handler: SignalHandler) -> UInt {
        guard let pointer else { return 0 }
        let id = connectSignal(pointer, signal, handler)
        if id != 0 { handlerIDs.append(id) }
        return id
    }

    /// Disconnects one handler (if still connected); its box is released by GLib.
    public func disconnect(_ id: UInt) {
        guard let pointer, let index = handlerIDs.firstIndex(of: id) else { return }
        handlerIDs.remove(at: index)
        if g_signal_handler_is_connected(pointer, gulong(id)) != 0 {
            g_signal_handler_disconnect(pointer, gulong(id))
        }
    }

    /// Whether `id` is still connected on the owned object.
    public func isConnected(_ id: UInt) -> Bool {
        guard let pointer else { return false }
        return g_signal_handler_is_connected(pointer, gulong(id)) != 0
    }

    /// Disconnects the remaining handlers, then drops the reference. Safe to call twice.
    public func release() {
        guard let object = pointer else { return }
        for id in handlerIDs where g_signal_handler_is_connected(object, gulong(id)) != 0 {
            g_signal_handler_disconnect(object, gulong(id))
        }
        handlerIDs.removeAll()
        pointer = nil
        g_object_unref(object)
    }

    isolated deinit {
        release()
    }
}
