extension Sequence where Element == UInt8 {
    /// The bytes as lowercase hexadecimal, two digits each: for names made of digests and
    /// MACs, and for the uid D-Bus's `EXTERNAL` authentication sends.
    package var lowercaseHex: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }
}
