import Keyring

/// A field of `list`'s tab-separated output, made safe for one line of a terminal.
///
/// Keys and usernames hold any text but NUL (ours, or an item another Secret Service
/// client tagged `swift-keyring`): a tab or a newline in a username would forge a
/// record, an ESC would drive the terminal. Control characters (C0, DEL,
/// C1) are printed as visible escapes, and a backslash as `\\`, so every escape
/// reads back one way. `--json` is exact and needs none of this.
enum PrintableField {
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\u{1B}": result += "\\e"
            case _ where scalar.isControlCharacter:
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
}
