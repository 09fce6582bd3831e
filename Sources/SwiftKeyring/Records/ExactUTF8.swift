import Glibc

/// Text made of bytes and compared as bytes, without the standard library's generic paths:
/// `String(validating:as:)` is not specialized for the caller and builds type metadata at
/// run time on every call (about 900 instructions a string, two thirds of them metadata),
/// and `utf8.elementsEqual` steps byte by byte. A first Secret Service lookup makes some
/// forty strings of the daemon's bytes and compares record identities several times: the
/// two cost 38,000 of its 313,000 client instructions (callgrind).
enum ExactUTF8 {
    /// `bytes` as text, or `nil` when they are not valid UTF-8: never repaired, as
    /// `String(validating:as:)` would have it.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var high: UInt8 = 0
        for byte in bytes { high |= byte }
        let text = String(decoding: bytes, as: UTF8.self)
        // ASCII is always valid; otherwise a repair shows as bytes that differ (a
        // replacement character where the input had none, or other lengths).
        guard high >= 0x80 else { return text }
        return sameBytes(text, bytes) ? text : nil
    }

    /// As `string(_:)`, for bytes of an array.
    static func string(_ bytes: ArraySlice<UInt8>) -> String? {
        bytes.withUnsafeBufferPointer(string)
    }

    /// Whether two strings are the same bytes (the same Unicode scalars), not merely
    /// canonically equivalent as `==` has it.
    static func same(_ left: String, _ right: String) -> Bool {
        right.utf8.withContiguousStorageIfAvailable { sameBytes(left, $0) }
            ?? left.utf8.elementsEqual(right.utf8)
    }

    /// Feeds `text`'s bytes to `hasher` at once; through a copy when they are not contiguous,
    /// so that equal bytes always feed the same way.
    static func hash(_ text: String, into hasher: inout Hasher) {
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil {
            Array(text.utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    private static func sameBytes(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.utf8.count == bytes.count else { return false }
        guard bytes.count > 0 else { return true }
        return text.utf8.withContiguousStorageIfAvailable { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
            ?? text.utf8.elementsEqual(bytes)
    }
}
