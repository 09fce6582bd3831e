extension Sequence where Element == UInt8 {
    /// The bytes as lowercase hexadecimal, two digits each: for names made of digests and
    /// MACs, and for the uid D-Bus's `EXTERNAL` authentication sends.
    ///
    /// Inlinable, so that callers in other modules get it specialized: generic and called
    /// through witness tables, its first call built type metadata at run time for 0.2M
    /// instructions (0.4M through `flatMap`), most of a Secret Service `get`'s connection
    /// to the bus (callgrind).
    @inlinable
    package var lowercaseHex: String {
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(Self.digit(byte >> 4))
            text.append(Self.digit(byte & 15))
        }
        return String(decoding: text, as: UTF8.self)
    }

    @usableFromInline
    static func digit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}

extension UInt8 {
    /// The value of this byte as one hexadecimal digit (either case), or `nil` when it is none:
    /// for the `%XX` escapes of D-Bus addresses and of git's URLs.
    package var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return self - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
