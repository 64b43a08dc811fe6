// A set of signal connections on several objects, disconnected together.
import CGLib

/// Records connections made on any number of objects and disconnects the ones still connected in
/// `disconnectAll()`. Each object is watched with a GLib weak pointer, so an object that died
/// first is skipped instead of touched.
@MainActor
public final class SignalConnections {
    private struct Entry {
        let slot: UnsafeMutablePointer<gpointer?>  // nulled by GLib when the object is finalized
        let id: UInt
    }
    private var entries: [Entry] = []

    public init() {}

    @discardableResult
    public func connect(_ object: UnsafeMutableRawPointer, _ signal: String, _ handler: SignalHandler) -> UInt {
        let id = connectSignal(object, signal, handler)
        guard id != 0 else { return 0 }
        let slot = UnsafeMutablePointer<gpointer?>.allocate(capacity: 1)
        slot.initialize(to: object)
        g_object_add_weak_pointer(object.assumingMemoryBound(to: GObject.self), slot)
        entries.append(Entry(slot: slot, id: id))
        return id
    }

    public var count: Int { entries.count }

    public func disconnectAll() {
        for entry in entries {
            if let object = entry.slot.pointee {
                if g_signal_handler_is_connected(object, gulong(entry.id)) != 0 {
                    g_signal_handler_disconnect(object, gulong(entry.id))
                }
                g_object_remove_weak_pointer(object.assumingMemoryBound(to: GObject.self), entry.slot)
            }
            entry.slot.deallocate()
        }
        entries.removeAll()
    }

    isolated deinit {
        disconnectAll()
    }
}
