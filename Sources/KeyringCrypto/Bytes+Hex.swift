extension Sequence where Element == UInt8 {
    /// The bytes as lowercase hexadecimal, two digits each: for names made of digests and
    /// MACs, and for the uid D-Bus's `EXTERNAL` authentication sends.
    package var lowercaseHex: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
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
