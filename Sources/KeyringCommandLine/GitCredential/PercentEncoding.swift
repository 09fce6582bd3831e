internal import KeyringCrypto

/// The percent-encoding of git credential names, in record keys and URLs.
package enum PercentEncoding {
    /// `text` with every ASCII byte but the unreserved ones and `kept` as `%HH`; other
    /// scalars beyond ASCII stay as they are (so a key shows a name in its own script)
    /// unless `asciiOnly` (for a URL).
    ///
    /// `%` and every control character are always encoded: a key splits back into its
    /// parts at the first `@` and `/` byte not kept, and never holds a line break. Only
    /// ASCII is ever kept as a delimiter, and no byte of a scalar beyond ASCII is ASCII, so
    /// a split by bytes finds exactly the delimiters written.
    package static func encode(_ text: String, keeping kept: [UInt8] = [], asciiOnly: Bool = false) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                if isUnreserved(byte) || (kept.contains(byte) && byte > 0x20 && byte != UInt8(ascii: "%") && byte != 0x7F) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += hex(byte)
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

    /// `bytes` with each `%HH` replaced by its byte, as git's `url_decode` does (a `%` not
    /// followed by two hex digits stays); `nil` when the result is not UTF-8.
    package static func decode(_ bytes: some Collection<UInt8>) -> String? {
        String(validating: decodedBytes(bytes), as: UTF8.self)
    }

    /// `bytes` with each `%HH` replaced by its byte, whatever the result.
    package static func decodedBytes(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let utf8 = Array(bytes)
        var result: [UInt8] = []
        result.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
                let high = utf8[index + 1].hexDigitValue, let low = utf8[index + 2].hexDigitValue
            {
                result.append(high << 4 | low)
                index += 3
            } else {
                result.append(utf8[index])
                index += 1
            }
        }
        return result
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default: return false
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }
}
