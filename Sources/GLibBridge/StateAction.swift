// A read-only stateful GAction: its state is exported on D-Bus with the application's actions
// (org.gtk.Actions), for clients to read; it cannot be activated or changed from outside.
import CGLib

@MainActor
public final class StateAction {
    private let owner: ObjectOwner
    public let name: String

    /// Adds `name` to `map` (a GApplication) with `state` (a floating GVariant, sunk here).
    public init(name: String, state: OpaquePointer, in map: UnsafeMutableRawPointer) {
        self.name = name
        owner = ObjectOwner(adopting: UnsafeMutableRawPointer(g_simple_action_new_stateful(name, nil, state)))
        // Disabled: org.gtk.Actions.Activate and SetState are refused for it; Describe still
        // returns its state.
        g_simple_action_set_enabled(owner.opaque, 0)
        g_action_map_add_action(OpaquePointer(map), owner.opaque)
    }

    /// Replaces the state (a floating GVariant, sunk here); D-Bus clients see the change.
    public func set(_ state: OpaquePointer) {
        g_simple_action_set_state(owner.opaque, state)
    }

    /// The current state (a new reference; unref it).
    public var state: OpaquePointer? { owner.pointer.flatMap { g_action_get_state(OpaquePointer($0)) } }

    public func release() { owner.release() }
}

/// Reads an exported action's state from another process over the session bus.
public enum RemoteActionState {
    /// `org.gtk.Actions.Describe(action)` on `busName` at `objectPath`: the action's state (a new
    /// reference), or the error message (for example: no such name, when nothing is running).
    public static func read(busName: String, objectPath: String, action: String) -> Result<OpaquePointer, GLibError> {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else { return .failure(GLibError.take(error)!) }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        var children: [OpaquePointer?] = [g_variant_new_string(action)]
        let arguments = g_variant_new_tuple(&children, 1)
        let replyType = g_variant_type_new("((bgav))")
        defer { g_variant_type_free(replyType) }
        guard let reply = g_dbus_connection_call_sync(bus, busName, objectPath, "org.gtk.Actions", "Describe", arguments, replyType,
                                                      G_DBUS_CALL_FLAGS_NO_AUTO_START, 5000, nil, &error) else {
            return .failure(GLibError.take(error)!)
        }
        defer { g_variant_unref(reply) }
        // ((bgav)): the description's third field is the state, as an array of zero or one variant.
        let description = g_variant_get_child_value(reply, 0)!
        defer { g_variant_unref(description) }
        let states = g_variant_get_child_value(description, 2)!
        defer { g_variant_unref(states) }
        guard g_variant_n_children(states) == 1, let boxed = g_variant_get_child_value(states, 0) else {
            return .failure(GLibError(domain: "porthole", code: 0, message: "the action \(action) has no state"))
        }
        defer { g_variant_unref(boxed) }
        return .success(g_variant_get_variant(boxed))
    }
}
