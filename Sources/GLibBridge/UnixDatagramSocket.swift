// Sends datagrams to a Unix socket (a path or an abstract name) through GIO: what sd_notify does.
import CGLib

/// An unbound AF_UNIX datagram socket that sends short messages to one address. Sending never
/// blocks: a datagram the receiver cannot take now is dropped, as sd_notify(3) does.
@MainActor
public final class UnixDatagramSocket {
    public enum Address: Sendable, Equatable {
        case path(String)
        /// A Linux abstract-namespace name, without its leading NUL byte.
        case abstract(String)
    }

    private let socketOwner: ObjectOwner
    private let addressOwner: ObjectOwner

    /// Nil when GIO cannot create the socket.
    public init?(to address: Address) {
        var error: UnsafeMutablePointer<GError>?
        guard let socket = g_socket_new(G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_DATAGRAM, G_SOCKET_PROTOCOL_DEFAULT, &error) else {
            Log.warning("cannot create a Unix datagram socket: \(GLibError.take(error)?.message ?? "?")")
            return nil
        }
        g_socket_set_blocking(socket, 0)
        socketOwner = ObjectOwner(adopting: UnsafeMutableRawPointer(socket))
        // G_UNIX_SOCKET_ADDRESS_ABSTRACT (not _PADDED): the address length covers the name only,
        // which is how systemd binds its abstract notify sockets.
        let gAddress: UnsafeMutablePointer<GSocketAddress>
        switch address {
        case .path(let path): gAddress = g_unix_socket_address_new(path)
        case .abstract(let name):
            gAddress = g_unix_socket_address_new_with_type(name, gint(name.utf8.count), G_UNIX_SOCKET_ADDRESS_ABSTRACT)
        }
        addressOwner = ObjectOwner(adopting: UnsafeMutableRawPointer(gAddress))
    }

    /// Sends `text` as one datagram; returns whether it was sent.
    @discardableResult
    public func send(_ text: String) -> Bool {
        guard let socket: UnsafeMutablePointer<GSocket> = socketOwner.typed(),
              let address: UnsafeMutablePointer<GSocketAddress> = addressOwner.typed() else { return false }
        var error: UnsafeMutablePointer<GError>?
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: gchar.self, capacity: buffer.count) {
                g_socket_send_to(socket, address, $0, gsize(buffer.count), nil, &error)
            }
        }
        if let failure = GLibError.take(error) {
            Log.debug("datagram not sent: \(failure.message)")
            return false
        }
        return sent == bytes.count
    }

    public func close() {
        if let socket: UnsafeMutablePointer<GSocket> = socketOwner.typed() { g_socket_close(socket, nil) }
        socketOwner.release()
        addressOwner.release()
    }
}
