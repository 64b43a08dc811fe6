// The representable bridge: a Swift value describes a GTK widget; a host makes, updates and
// dismantles it, in the manner of SwiftUI's UIViewRepresentable.
import CWebKitGtk
import GLibBridge

/// What `makeWidget` and `updateWidget` receive: the coordinator, and the connection set in
/// which `makeWidget` records its signal handlers (disconnected by the host when dismantled).
@MainActor
public final class RepresentableContext<Coordinator> {
    public let coordinator: Coordinator
    public let connections: SignalConnections

    init(coordinator: Coordinator, connections: SignalConnections) {
        self.coordinator = coordinator
        self.connections = connections
    }
}

@MainActor
public protocol WidgetRepresentable {
    associatedtype Coordinator

    /// Creates the object that receives the widget's signals. Called once, before `makeWidget`.
    func makeCoordinator() -> Coordinator
    /// Creates the widget (a floating reference is fine) and connects its signals. Called once.
    func makeWidget(context: RepresentableContext<Coordinator>) -> UnsafeMutablePointer<GtkWidget>
    /// Brings the widget in line with this value. Called after make and on every change; must
    /// compare with what was last applied and touch GTK only for what changed.
    func updateWidget(_ widget: UnsafeMutablePointer<GtkWidget>, context: RepresentableContext<Coordinator>)
    /// Last call before the host's handlers are disconnected and its reference dropped.
    static func dismantleWidget(_ widget: UnsafeMutablePointer<GtkWidget>, coordinator: Coordinator)
}

extension WidgetRepresentable {
    public static func dismantleWidget(_ widget: UnsafeMutablePointer<GtkWidget>, coordinator: Coordinator) {}
}

/// Owns one representable's coordinator and widget for the widget's lifetime.
@MainActor
public final class RepresentableHost<Representable: WidgetRepresentable> {
    public private(set) var representable: Representable
    public let coordinator: Representable.Coordinator
    private let context: RepresentableContext<Representable.Coordinator>
    private let owner: ObjectOwner

    public init(_ representable: Representable) {
        self.representable = representable
        coordinator = representable.makeCoordinator()
        context = RepresentableContext(coordinator: coordinator, connections: SignalConnections())
        let widget = representable.makeWidget(context: context)
        owner = ObjectOwner(sinking: UnsafeMutableRawPointer(widget))
        representable.updateWidget(widget, context: context)
    }

    /// The widget, until `dismantle()`.
    public var widget: UnsafeMutablePointer<GtkWidget>? { owner.typed(GtkWidget.self) }

    public func update(_ representable: Representable) {
        self.representable = representable
        guard let widget else { return }
        representable.updateWidget(widget, context: context)
    }

    /// Tells the representable, disconnects every handler made in `makeWidget`, drops the widget.
    public func dismantle() {
        guard let widget else { return }
        Representable.dismantleWidget(widget, coordinator: coordinator)
        context.connections.disconnectAll()
        owner.release()
    }

    isolated deinit {
        dismantle()
    }
}
