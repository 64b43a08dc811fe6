// GActions with Swift handlers: what window and application actions (and their accelerators
// and D-Bus exports) are made of.
import CGLib

/// One GSimpleAction added to an action map (a GtkApplicationWindow or GApplication), with its
/// handler. The map holds the action; this object holds the handler's connection.
@MainActor
public final class SimpleAction {
    private let owner: ObjectOwner
    public let name: String

    /// An action without a parameter.
    public init(name: String, in map: UnsafeMutableRawPointer, _ handler: @escaping @MainActor () -> Void) {
        self.name = name
        owner = ObjectOwner(adopting: UnsafeMutableRawPointer(g_simple_action_new(name, nil)))
        owner.connect("activate", .pointer { _ in handler() })
        g_action_map_add_action(OpaquePointer(map), owner.opaque)
    }

    /// An action with a string parameter (`win.open-site::Apple`, `gapplication action … "'x'"`).
    public init(name: String, stringParameterIn map: UnsafeMutableRawPointer, _ handler: @escaping @MainActor (String) -> Void) {
        self.name = name
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        owner = ObjectOwner(adopting: UnsafeMutableRawPointer(g_simple_action_new(name, type)))
        owner.connect("activate", .pointer { parameter in
            guard let parameter else { return }
            handler(String(cString: g_variant_get_string(OpaquePointer(parameter), nil)))
        })
        g_action_map_add_action(OpaquePointer(map), owner.opaque)
    }

    /// An action with a string parameter and a string state: menu items targeting it show as
    /// radio items, the one whose target equals the state marked (the current site).
    public init(name: String, stringParameterIn map: UnsafeMutableRawPointer, state: String, _ handler: @escaping @MainActor (String) -> Void) {
        self.name = name
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        owner = ObjectOwner(adopting: UnsafeMutableRawPointer(g_simple_action_new_stateful(name, type, g_variant_new_string(state))))
        owner.connect("activate", .pointer { parameter in
            guard let parameter else { return }
            handler(String(cString: g_variant_get_string(OpaquePointer(parameter), nil)))
        })
        g_action_map_add_action(OpaquePointer(map), owner.opaque)
    }

    /// The string state (of an action made with one), or nil.
    public var stringState: String? {
        get {
            guard let pointer = owner.pointer, let state = g_action_get_state(OpaquePointer(pointer)) else { return nil }
            defer { g_variant_unref(state) }
            return String(cString: g_variant_get_string(state, nil))
        }
        set {
            guard let newValue, newValue != stringState else { return }
            g_simple_action_set_state(owner.opaque, g_variant_new_string(newValue))
        }
    }

    /// Whether the action can be activated (buttons bound to it follow; accelerators skip it).
    public var isEnabled: Bool {
        get { owner.pointer.map { g_action_get_enabled(OpaquePointer($0)) != 0 } ?? false }
        set {
            guard newValue != isEnabled else { return }
            g_simple_action_set_enabled(owner.opaque, newValue ? 1 : 0)
        }
    }

    /// Activates the action as a button or accelerator would.
    public func activate(_ parameter: String? = nil) {
        guard let pointer = owner.pointer else { return }
        let variant = parameter.flatMap { g_variant_new_string($0) }
        g_action_activate(OpaquePointer(pointer), variant)
    }

    public func release() { owner.release() }
}
