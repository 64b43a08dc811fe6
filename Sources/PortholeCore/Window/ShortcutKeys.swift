// What the Keyboard Shortcuts window shows for an action: one entry per key a person would press,
// not one per keysym GTK matches (Ctrl and "+" on the main keys and on the keypad read the same).

public enum ShortcutKeys {
    /// The accelerators of `keys` worth showing, in order: keypad twins (`KP_Add` beside `plus`,
    /// `KP_0` beside `0`) and keys only some keyboards have (`Back`, `HomePage`, `ZoomIn`) are
    /// left out, and so is a second accelerator that reads the same as an earlier one.
    public static func shown(_ keys: [String]) -> [String] {
        var result: [String] = []
        var seen: Set<String> = []
        for key in keys {
            let (modifiers, name) = split(key)
            guard !name.hasPrefix("KP_"), modifiers.isEmpty ? isPlainKey(name) : true else { continue }
            if seen.insert(modifiers + "|" + (twins[name] ?? name)).inserted { result.append(key) }
        }
        return result
    }

    /// `<Control><Shift>g` as ("<Control><Shift>", "g").
    static func split(_ key: String) -> (modifiers: String, name: String) {
        guard let end = key.lastIndex(of: ">") else { return ("", key) }
        return (String(key[...end]), String(key[key.index(after: end)...]))
    }

    /// Keys every keyboard has that may stand alone: function keys and Escape.
    private static func isPlainKey(_ name: String) -> Bool {
        name == "Escape" || (name.hasPrefix("F") && name.dropFirst().allSatisfy(\.isNumber) && name.count > 1)
    }

    /// Keysyms printed on the same key as another (`=` is the unshifted `+` on US keyboards):
    /// the same entry for a reader of the window.
    private static let twins: [String: String] = ["equal": "plus"]
}
