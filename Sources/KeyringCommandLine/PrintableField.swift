import SwiftKeyring

/// Text from others made safe for one line of a terminal: a field of `list`'s
/// tab-separated output, a line of `doctor`, an error that quotes a daemon or a cluster.
///
/// Keys and usernames hold any text but NUL (ours, or an item another Secret Service
/// client tagged `swift-keyring`), and a daemon's or a cluster's words are theirs: a
/// tab or a newline would forge a record or a line, an ESC would drive the terminal
/// (set its title, clear the screen), and a bidirectional control (U+202A–U+202E,
/// U+2066–U+2069) would show text in another order than it is. Control characters
/// (C0, DEL, C1) and those controls are printed as visible escapes, and a backslash
/// as `\\`, so every escape reads back one way. `--json` is exact and needs none of this.
package enum PrintableField {
    package static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\u{1B}": result += "\\e"
            case _ where scalar.isControlCharacter || isBidirectionalControl(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result +=
                    scalar.value <= 0x7F
                    ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                    : "\\u{" + hex + "}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The embeddings, overrides and isolates that reorder what a terminal shows.
    private static func isBidirectionalControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}
