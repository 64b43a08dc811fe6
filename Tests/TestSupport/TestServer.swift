// A real HTTP server on 127.0.0.1 for integration tests (libsoup's SoupServer). Set as WebKit's
// proxy, it also answers for real host names such as apple.com.
import CWebKitGtk
import GLibBridge

public struct TestRequest: Sendable, Equatable {
    public let method: String
    public let host: String
    public let path: String
    public let query: String?
    /// The `Authorization` header, when the request has one.
    public var authorization: String? = nil
}

public enum TestResponse {
    case html(String)
    case body(String, mimeType: String)
    case status(UInt32, String)
    case redirect(UInt32, to: String)
    /// Keeps the request open until `TestServer.releaseHeld()` answers it with this HTML.
    case hold(String)
    /// A file to save: `Content-Disposition: attachment; filename=…`.
    case attachment(String, filename: String, mimeType: String)
    /// 401 with `WWW-Authenticate: Basic realm=…`: the browser asks for a user name and password.
    case unauthorized(realm: String)
}

@MainActor
private final class HandlerBox {
    weak var server: TestServer?
    init(_ server: TestServer) { self.server = server }
}

/// `void (*SoupServerCallback)(SoupServer *server, SoupServerMessage *msg, const char *path,
/// GHashTable *query, gpointer user_data)`.
private let handlerTrampoline: SoupServerCallback = { _, message, _, _, data in
    guard let incoming = message, let data else { return }
    nonisolated(unsafe) let message = incoming  // the server runs on the main context's thread
    let box = Unmanaged<HandlerBox>.fromOpaque(data).takeUnretainedValue()
    MainActor.assumeIsolated { box.server?.handle(message) }
}

private let releaseHandlerBox: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<HandlerBox>.fromOpaque(data).release()
}

@MainActor
public final class TestServer {
    private let owner: ObjectOwner
    public private(set) var port: UInt16 = 0
    public private(set) var requests: [TestRequest] = []
    /// The Accept-Language header of the last request for each path (absent when none was sent).
    public private(set) var acceptLanguage: [String: String] = [:]
    /// Answers a request; the default answers 404.
    public var route: @MainActor (TestRequest) -> TestResponse = { _ in .status(404, "Not Found") }
    private var held: [(OpaquePointer, String)] = []

    /// A server on `port` (0 picks a free one); over HTTPS with `tlsCertificate`.
    public init(port requestedPort: UInt16 = 0, tlsCertificate: UnsafeMutablePointer<GTlsCertificate>? = nil) {
        let server = g_object_new_with_properties(soup_server_get_type(), 0, nil, nil)!
        owner = ObjectOwner(adopting: UnsafeMutableRawPointer(server))
        scheme = tlsCertificate == nil ? "http" : "https"
        let soup: UnsafeMutablePointer<SoupServer>? = owner.typed()
        soup_server_add_handler(soup, nil, handlerTrampoline, Unmanaged.passRetained(HandlerBox(self)).toOpaque(), releaseHandlerBox)
        var flags = SOUP_SERVER_LISTEN_IPV4_ONLY
        if let tlsCertificate {
            soup_server_set_tls_certificate(soup, tlsCertificate)
            flags = SoupServerListenOptions(flags.rawValue | SOUP_SERVER_LISTEN_HTTPS.rawValue)
        }
        var error: UnsafeMutablePointer<GError>?
        guard soup_server_listen_local(soup, guint(requestedPort), flags, &error) != 0 else {
            fatalError("test server could not listen: \(GLibError.take(error)?.message ?? "?")")
        }
        let uris = soup_server_get_uris(soup)
        if let first = uris?.pointee.data {
            port = UInt16(g_uri_get_port(OpaquePointer(first)))
        }
        g_slist_free_full(uris) { g_uri_unref(OpaquePointer($0)) }
    }

    private let scheme: String

    /// `http://127.0.0.1:PORT` + path (`https://` for a TLS server).
    public func url(_ path: String = "/") -> String { "\(scheme)://127.0.0.1:\(port)\(path)" }
    /// The value for WebKit's proxy setting.
    public var proxyURI: String { "http://127.0.0.1:\(port)" }

    public func count(path: String, host: String? = nil) -> Int {
        requests.filter { $0.path == path && (host == nil || $0.host == host) }.count
    }

    /// Answers every held request.
    public func releaseHeld() {
        let pending = held
        held.removeAll()
        for (message, html) in pending {
            respond(message, .html(html))
            soup_server_message_unpause(message)
            g_object_unref(UnsafeMutableRawPointer(message))
        }
    }

    public func stop() {
        releaseHeld()
        if let soup: UnsafeMutablePointer<SoupServer> = owner.typed() { soup_server_disconnect(soup) }
        owner.release()
    }

    fileprivate func handle(_ message: OpaquePointer) {
        let uri = soup_server_message_get_uri(message)
        let request = TestRequest(
            method: String(cString: soup_server_message_get_method(message)),
            host: g_uri_get_host(uri).map { String(cString: $0) } ?? "",
            path: g_uri_get_path(uri).map { String(cString: $0) } ?? "/",
            query: g_uri_get_query(uri).map { String(cString: $0) },
            authorization: soup_message_headers_get_one(soup_server_message_get_request_headers(message), "Authorization")
                .map { String(cString: $0) })
        requests.append(request)
        if let language = soup_message_headers_get_one(soup_server_message_get_request_headers(message), "Accept-Language") {
            acceptLanguage[request.path] = String(cString: language)
        }
        let response = route(request)
        if case .hold(let html) = response {
            g_object_ref(UnsafeMutableRawPointer(message))
            soup_server_message_pause(message)
            held.append((message, html))
            return
        }
        respond(message, response)
    }

    private func respond(_ message: OpaquePointer, _ response: TestResponse) {
        switch response {
        case .html(let html): setBody(message, html, mimeType: "text/html; charset=utf-8")
        case .body(let text, let mimeType): setBody(message, text, mimeType: mimeType)
        case .status(let code, let text):
            soup_server_message_set_status(message, code, nil)
            setBody(message, text, mimeType: "text/plain", status: code)
        case .redirect(let code, let location): soup_server_message_set_redirect(message, code, location)
        case .hold(let html): setBody(message, html, mimeType: "text/html; charset=utf-8")
        case .unauthorized(let realm):
            setBody(message, "<title>Unauthorized</title>", mimeType: "text/html", status: 401)
            soup_message_headers_replace(soup_server_message_get_response_headers(message), "WWW-Authenticate", "Basic realm=\"\(realm)\"")
        case .attachment(let text, let filename, let mimeType):
            setBody(message, text, mimeType: mimeType)
            soup_message_headers_replace(soup_server_message_get_response_headers(message), "Content-Disposition",
                                         "attachment; filename=\"\(filename)\"")
        }
    }

    private func setBody(_ message: OpaquePointer, _ text: String, mimeType: String, status: UInt32 = 200) {
        soup_server_message_set_status(message, status, nil)
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            soup_server_message_set_response(message, mimeType, SOUP_MEMORY_COPY, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), gsize(buffer.count))
        }
    }
}
