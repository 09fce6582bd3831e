/// The percent-encoding of git credential names, in record keys and URLs.
package enum PercentEncoding {
    /// `text` with every ASCII byte but the unreserved ones and `kept` as `%HH`; other
    /// scalars beyond ASCII stay as they are (so a key shows a name in its own script)
    /// unless `asciiOnly` (for a URL).
    ///
    /// `%` and every control character are always encoded: a key splits back into its
    /// parts at the first `@` and `/` not kept, and never holds a line break.
    package static func encode(_ text: String, keeping kept: Set<Character> = [], asciiOnly: Bool = false) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let character = Character(scalar)
                if isUnreserved(scalar)
                    || (kept.contains(character) && scalar.value > 0x20 && scalar != "%" && scalar != "\u{7F}")
                {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += hex(UInt8(scalar.value))
                }
            } else if asciiOnly || scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
                || scalar.properties.isWhitespace
            {
                // C1 controls, invisible format characters and exotic spaces: shown as bytes, never hidden in a key.
                for byte in String(scalar).utf8 { result += hex(byte) }
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` with each `%HH` replaced by its byte, as git's `url_decode` does (a `%` not
    /// followed by two hex digits stays); `nil` when the bytes are not UTF-8.
    package static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
                let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func isUnreserved(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "-", ".", "_", "~": return true
        default: return false
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
