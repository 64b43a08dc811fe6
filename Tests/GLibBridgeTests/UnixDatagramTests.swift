// Datagrams to Unix sockets by path and by abstract name, as systemd's notify socket receives them.
import CGLib
import Foundation
import GLibBridge
import XCTest

/// A bound datagram socket that reads what arrives (the role systemd plays).
@MainActor
private final class Receiver {
    let socket: UnsafeMutablePointer<GSocket>

    init(_ address: UnsafeMutablePointer<GSocketAddress>) throws {
        var error: UnsafeMutablePointer<GError>?
        socket = g_socket_new(G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_DATAGRAM, G_SOCKET_PROTOCOL_DEFAULT, &error)!
        g_socket_bind(socket, address, 1, &error)
        if let failure = GLibError.take(error) { throw failure }
        g_socket_set_timeout(socket, 5)
    }

    func receive() -> String? {
        var buffer = [gchar](repeating: 0, count: 512)
        var error: UnsafeMutablePointer<GError>?
        let count = g_socket_receive(socket, &buffer, gsize(buffer.count), nil, &error)
        _ = GLibError.take(error)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<Int(count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func close() {
        g_socket_close(socket, nil)
        g_object_unref(UnsafeMutableRawPointer(socket))
    }
}

final class UnixDatagramTests: XCTestCase {
    func testSendsToASocketPath() throws {
        try MainActor.assumeIsolated {
            let path = NSTemporaryDirectory() + "porthole-notify-\(getpid()).sock"
            defer { unlink(path) }
            let address = g_unix_socket_address_new(path)!
            defer { g_object_unref(UnsafeMutableRawPointer(address)) }
            let receiver = try Receiver(address)
            defer { receiver.close() }
            let sender = try XCTUnwrap(UnixDatagramSocket(to: .path(path)))
            defer { sender.close() }
            XCTAssertTrue(sender.send("READY=1"))
            XCTAssertEqual(receiver.receive(), "READY=1")
        }
    }

    func testSendsToAnAbstractName() throws {
        try MainActor.assumeIsolated {
            let name = "porthole-test-\(getpid())-\(g_random_int())"
            let address = g_unix_socket_address_new_with_type(name, gint(name.utf8.count), G_UNIX_SOCKET_ADDRESS_ABSTRACT)!
            defer { g_object_unref(UnsafeMutableRawPointer(address)) }
            let receiver = try Receiver(address)
            defer { receiver.close() }
            let sender = try XCTUnwrap(UnixDatagramSocket(to: .abstract(name)))
            defer { sender.close() }
            XCTAssertTrue(sender.send("WATCHDOG=1"))
            XCTAssertEqual(receiver.receive(), "WATCHDOG=1")
        }
    }

    func testSendingToNobodyFailsQuietly() throws {
        try MainActor.assumeIsolated {
            let sender = try XCTUnwrap(UnixDatagramSocket(to: .path(NSTemporaryDirectory() + "porthole-nobody-\(getpid()).sock")))
            defer { sender.close() }
            XCTAssertFalse(sender.send("READY=1"))
        }
    }
}
