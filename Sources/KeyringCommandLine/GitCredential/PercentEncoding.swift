internal import KeyringCrypto
import SwiftKeyring

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

    /// `bytes` with each `%HH` replaced by its byte, whatever the result. Read where they are
    /// (no copy of them is made) into one buffer of their size, which never grows: for a
    /// password, the caller can wipe the one buffer that holds it decoded.
    package static func decodedBytes(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let first = bytes.index(after: index)
            if bytes[index] == UInt8(ascii: "%"), first != bytes.endIndex, bytes.index(after: first) != bytes.endIndex,
                let high = bytes[first].hexDigitValue, let low = bytes[bytes.index(after: first)].hexDigitValue
            {
                result.append(high << 4 | low)
                index = bytes.index(first, offsetBy: 2)
            } else {
                result.append(bytes[index])
                index = first
            }
        }
        return result
    }

    /// Calls `body` with `bytes` percent-decoded, in a buffer wiped when it returns: a password
    /// in a URL, decoded without a `String` of it.
    package static func withDecodedBytes<Result>(_ bytes: some Collection<UInt8>, _ body: ([UInt8]) throws -> Result) rethrows
        -> Result
    {
        var decoded = decodedBytes(bytes)
        defer { decoded.wipe() }
        return try body(decoded)
    }

    /// Whether `bytes`, percent-decoded, are UTF-8, as ``decode(_:)`` judges, without a `String` of them.
    package static func decodesToUTF8(_ bytes: some Collection<UInt8>) -> Bool {
        withDecodedBytes(bytes) { Keyring.isUTF8($0) }
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
