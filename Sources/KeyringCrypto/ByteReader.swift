/// Reads the file format's big-endian fields from bytes, turning every overrun into ``CryptoError/damaged(reason:)``.
package struct ByteReader {
    private let bytes: [UInt8]
    /// The index of the next unread byte.
    package private(set) var offset: Int
    private let end: Int
    /// Names what is being read, for the `.damaged` reason.
    private let context: String

    package init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil, context: String) {
        self.bytes = bytes
        self.offset = start
        self.end = end ?? bytes.count
        self.context = context
    }

    /// How many bytes are left.
    package var remaining: Int { end - offset }

    package mutating func bytes(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else {
            throw CryptoError.damaged(reason: "\(context) ends early")
        }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    package mutating func uint8() throws -> UInt8 {
        try bytes(1).first!
    }

    package mutating func uint16() throws -> UInt16 {
        try bytes(2).reduce(0) { $0 << 8 | UInt16($1) }
    }

    package mutating func uint32() throws -> UInt32 {
        try bytes(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// A 32-bit length, then that many bytes.
    package mutating func lengthPrefixed() throws -> ArraySlice<UInt8> {
        try bytes(Int(try uint32()))
    }
}

extension Array where Element == UInt8 {
    package mutating func appendBigEndian(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value))
    }

    package mutating func appendBigEndian(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) {
            append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    /// A 32-bit length, then the bytes.
    package mutating func appendLengthPrefixed(_ bytes: some Collection<UInt8>) {
        appendBigEndian(UInt32(bytes.count))
        append(contentsOf: bytes)
    }
}
