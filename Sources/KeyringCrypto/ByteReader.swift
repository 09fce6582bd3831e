/// Reads the file format's big-endian fields from bytes, turning every overrun into `.damaged`.
struct ByteReader {
    private let bytes: [UInt8]
    /// The index of the next unread byte.
    private(set) var offset: Int
    private let end: Int
    /// Names what is being read, for the `.damaged` reason.
    private let context: String

    init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil, context: String) {
        self.bytes = bytes
        self.offset = start
        self.end = end ?? bytes.count
        self.context = context
    }

    /// How many bytes are left.
    var remaining: Int { end - offset }

    mutating func bytes(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else {
            throw KeyringError.damaged(reason: "\(context) ends early")
        }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func uint8() throws -> UInt8 {
        try bytes(1).first!
    }

    mutating func uint16() throws -> UInt16 {
        try bytes(2).reduce(0) { $0 << 8 | UInt16($1) }
    }

    mutating func uint32() throws -> UInt32 {
        try bytes(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// A 32-bit length, then that many bytes.
    mutating func lengthPrefixed() throws -> ArraySlice<UInt8> {
        try bytes(Int(try uint32()))
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value))
    }

    mutating func appendBigEndian(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) {
            append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    /// A 32-bit length, then the bytes.
    mutating func appendLengthPrefixed(_ bytes: some Collection<UInt8>) {
        appendBigEndian(UInt32(bytes.count))
        append(contentsOf: bytes)
    }
}
