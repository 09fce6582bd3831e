/// A JSON string's escaping (RFC 8259), written into a byte buffer, so a password's bytes can
/// be quoted without a `String` of them.
///
/// The same text Foundation's `JSONEncoder` writes with `.withoutEscapingSlashes` (so
/// `get --json` reads as it always did): `"` and `\` escaped, `\b`, `\t`, `\n`, `\f` and `\r`
/// by their short forms, every other control below U+0020 as `\u00xx` in lowercase hex, and
/// every other byte (`/`, DEL, UTF-8 beyond ASCII) as it is. Nothing is allocated on the way:
/// an escape is written straight into the caller's buffer, never into a temporary one freed unwiped.
enum JSONStringEscaping {
    /// How many bytes `bytes` take once escaped, without the quotes around them.
    static func escapedCount(_ bytes: some Sequence<UInt8>) -> Int {
        bytes.reduce(0) { count, byte in count + escapedCount(byte) }
    }

    /// Appends `bytes`, escaped, to `buffer`; the caller reserves room first
    /// (``escapedCount(_:)``), since a buffer that grows leaves its old copy unwiped.
    static func append(_ bytes: some Sequence<UInt8>, to buffer: inout [UInt8]) {
        let backslash = UInt8(ascii: "\\")
        for byte in bytes {
            if let short = shortEscape(byte) {
                buffer.append(backslash)
                buffer.append(short)
            } else if byte < 0x20 {
                buffer.append(backslash)
                buffer.append(UInt8(ascii: "u"))
                buffer.append(UInt8(ascii: "0"))
                buffer.append(UInt8(ascii: "0"))
                buffer.append(hexDigit(byte >> 4))
                buffer.append(hexDigit(byte & 0xF))
            } else {
                buffer.append(byte)
            }
        }
    }

    /// The bytes `byte` takes: 2 for a short escape, 6 for `\u00xx`, else 1.
    private static func escapedCount(_ byte: UInt8) -> Int {
        shortEscape(byte) != nil ? 2 : byte < 0x20 ? 6 : 1
    }

    /// The letter after `\` for the bytes JSON escapes so: `"`, `\` and five controls.
    private static func shortEscape(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): byte
        case 0x08: UInt8(ascii: "b")
        case 0x09: UInt8(ascii: "t")
        case 0x0A: UInt8(ascii: "n")
        case 0x0C: UInt8(ascii: "f")
        case 0x0D: UInt8(ascii: "r")
        default: nil
        }
    }

    /// A lowercase hex digit, as `JSONEncoder` writes them.
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
