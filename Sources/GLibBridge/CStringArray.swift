// The NULL-terminated array of C strings that GLib, GTK and WebKit calls take (`char **`,
// `const char * const *`), built in one place.
import CGLib

/// A C string pointer an array may hold: `char *` or `const char *`.
public protocol CStringPointer {
    init(_ string: UnsafeMutablePointer<CChar>)
}

extension UnsafeMutablePointer: CStringPointer where Pointee == CChar {
    public init(_ string: UnsafeMutablePointer<CChar>) { self = string }
}

extension UnsafePointer: CStringPointer where Pointee == CChar {
    public init(_ string: UnsafeMutablePointer<CChar>) { self.init(OpaquePointer(string)) }
}

/// Calls `body` with `strings` as a NULL-terminated array of C strings: copies that live until
/// `body` returns (a callee that keeps the array must copy it, as GLib's do).
public func withCStringArray<Element: CStringPointer, Result>(
    _ strings: [String], _ body: (UnsafeMutablePointer<Element?>) throws -> Result
) rethrows -> Result {
    let copies = strings.map { g_strdup($0)! }
    defer { copies.forEach { g_free($0) } }
    var array: [Element?] = copies.map { Element($0) } + [nil]
    return try array.withUnsafeMutableBufferPointer { try body($0.baseAddress!) }
}
