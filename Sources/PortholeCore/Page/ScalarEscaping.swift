// The one loop behind Porthole's escapers (HTML text, JavaScript string literals, status lines):
// each escaper names its replacements; every other scalar stays as it is.

enum ScalarEscaping {
    /// `text` with each scalar in `table`, or for which `other` answers, replaced by that text.
    static func escape(_ text: String, _ table: [Unicode.Scalar: String],
                       other: (Unicode.Scalar) -> String? = { _ in nil }) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let replacement = table[scalar] ?? other(scalar) {
                out += replacement
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// C0 and C1 controls and DEL: what no escaper lets through as itself.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
