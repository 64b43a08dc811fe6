// The C signature of a signal handler, checked against GLib's own record of the signal
// (g_signal_query) so that a handler of the wrong shape is refused instead of called.
import CGLib

/// How a value crosses a C call, as far as a trampoline cares: what it must read and return.
public enum SignalValue: Sendable, Hashable, CustomStringConvertible {
    case void
    /// A 32-bit integer: gboolean, gint, guint, an enum or flags.
    case int32
    /// A NUL-terminated string (`const gchar *`), which the trampoline copies.
    case string
    /// Any other pointer: an object, interface, boxed type, GParamSpec, GVariant or gpointer.
    case pointer
    /// Anything else (64-bit integers, floating point): no trampoline reads it.
    case other(String)

    /// The class of a GType as a signal passes it.
    init(_ type: GType) {
        // G_SIGNAL_TYPE_STATIC_SCOPE marks a parameter as not copied; it is not part of the type.
        let type = type & ~GType(1)
        switch g_type_fundamental(type) {
        case GType(1 << G_TYPE_FUNDAMENTAL_SHIFT): self = .void  // G_TYPE_NONE
        case GType(5 << G_TYPE_FUNDAMENTAL_SHIFT), GType(6 << G_TYPE_FUNDAMENTAL_SHIFT),  // BOOLEAN, INT
             GType(7 << G_TYPE_FUNDAMENTAL_SHIFT), GType(12 << G_TYPE_FUNDAMENTAL_SHIFT),  // UINT, ENUM
             GType(13 << G_TYPE_FUNDAMENTAL_SHIFT):  // FLAGS
            self = .int32
        case GType(16 << G_TYPE_FUNDAMENTAL_SHIFT): self = .string
        case GType(2 << G_TYPE_FUNDAMENTAL_SHIFT), GType(17 << G_TYPE_FUNDAMENTAL_SHIFT),  // INTERFACE, POINTER
             GType(18 << G_TYPE_FUNDAMENTAL_SHIFT), GType(19 << G_TYPE_FUNDAMENTAL_SHIFT),  // BOXED, PARAM
             GType(20 << G_TYPE_FUNDAMENTAL_SHIFT), GType(21 << G_TYPE_FUNDAMENTAL_SHIFT):  // OBJECT, VARIANT
            self = .pointer
        default: self = .other(String(cString: g_type_name(type)))
        }
    }

    public var description: String {
        switch self {
        case .void: "void"
        case .int32: "int32"
        case .string: "string"
        case .pointer: "pointer"
        case .other(let name): name
        }
    }
}

/// A handler's C signature without the instance and user-data pointers every handler has.
public struct SignalShape: Sendable, Hashable, CustomStringConvertible {
    public let returns: SignalValue
    public let parameters: [SignalValue]

    public init(returns: SignalValue, _ parameters: [SignalValue]) {
        self.returns = returns
        self.parameters = parameters
    }

    /// What GLib records for `signal` (with or without a `::detail`) on `type`, or nil when the
    /// type has no such signal.
    public init?(of signal: String, on type: GType) {
        var id: guint = 0
        var detail: GQuark = 0
        guard g_signal_parse_name(signal, type, &id, &detail, 1) != 0 else { return nil }  // a detail (::name) need not be known yet
        var query = GSignalQuery()
        g_signal_query(id, &query)
        guard query.signal_id != 0 else { return nil }
        let parameters = (0..<Int(query.n_params)).map { SignalValue(query.param_types[$0]) }
        self.init(returns: SignalValue(query.return_type), parameters)
    }

    public var description: String {
        "\(returns) (\(parameters.map(\.description).joined(separator: ", ")))"
    }
}

/// A signal this process has connected a handler to, on an instance of `type`: what a test
/// compares with the signal catalog, so a signal connected later without a catalog entry is
/// noticed. At most one entry per type, signal and shape, so the set stays small.
public struct ConnectedSignal: Hashable, Sendable {
    public let type: GType
    public let signal: String
    public let shape: SignalShape

    @MainActor public internal(set) static var seen: Set<ConnectedSignal> = []
}

/// One signal Porthole connects: the type that has it, its name, and the handler shape used.
public struct SignalDeclaration: Sendable {
    public let typeName: String
    public let signal: String
    public let shape: SignalShape

    public init(_ typeName: String, _ signal: String, _ shape: SignalShape) {
        self.typeName = typeName
        self.signal = signal
        self.shape = shape
    }
}

extension SignalHandler {
    /// The C signature this handler's trampoline reads (see each trampoline's comment).
    public var shape: SignalShape {
        switch self {
        case .plain: SignalShape(returns: .void, [])
        case .pointer: SignalShape(returns: .void, [.pointer])
        case .twoPointers: SignalShape(returns: .void, [.pointer, .pointer])
        case .enumValue: SignalShape(returns: .void, [.int32])
        case .pointerReturningBool: SignalShape(returns: .int32, [.pointer])
        case .twoPointersReturningBool: SignalShape(returns: .int32, [.pointer, .pointer])
        case .threePointersReturningBool: SignalShape(returns: .int32, [.pointer, .pointer, .pointer])
        case .pointerEnumReturningBool: SignalShape(returns: .int32, [.pointer, .int32])
        case .enumStringErrorReturningBool: SignalShape(returns: .int32, [.int32, .string, .pointer])
        case .stringPointerEnumReturningBool: SignalShape(returns: .int32, [.string, .pointer, .int32])
        case .pointerReturningPointer: SignalShape(returns: .pointer, [.pointer])
        case .pointerReturningInt: SignalShape(returns: .int32, [.pointer])
        case .dragDrop: SignalShape(returns: .int32, [.pointer, .int32, .int32, .int32])
        case .dragDataReceived: SignalShape(returns: .void, [.pointer, .int32, .int32, .pointer, .int32, .int32])
        case .fileChanged: SignalShape(returns: .void, [.pointer, .pointer, .int32])
        }
    }
}
