/// Serialises the GVariant values of libsecret's keyring file, in GVariant's normal form,
/// little-endian: members aligned with zero padding, framing offsets of the width the
/// container's size asks for. Each value is its bytes; containers take their members' bytes.
enum GVariantEncoder {
    static func uint32(_ value: UInt32) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    static func uint64(_ value: UInt64) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// A string's UTF-8 bytes and its NUL. The caller has refused NUL inside the text.
    static func string(_ text: String) -> [UInt8] {
        Array(text.utf8) + [0]
    }

    /// A tuple or dictionary entry of `members`, each given with its type.
    static func tuple(_ members: [(GVariantType, [UInt8])]) -> [UInt8] {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        for (index, (type, member)) in members.enumerated() {
            pad(&bytes, to: type.alignment)
            bytes += member
            // The last member's end is where the offsets begin, so it has none of its own.
            if type.fixedSize == nil && index != members.count - 1 { ends.append(bytes.count) }
        }
        let type = GVariantType.tuple(members.map(\.0))
        if let fixed = type.fixedSize {
            bytes += [UInt8](repeating: 0, count: fixed - bytes.count)
            return bytes
        }
        // A tuple's offsets are stored last member first.
        appendOffsets(ends.reversed(), to: &bytes)
        return bytes
    }

    /// An array of `elements` of type `element`.
    static func array(of element: GVariantType, _ elements: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        for value in elements {
            pad(&bytes, to: element.alignment)
            bytes += value
            ends.append(bytes.count)
        }
        if element.fixedSize == nil { appendOffsets(ends, to: &bytes) }
        return bytes
    }

    /// Appends `offsets` at the width a reader will expect for the container they finish.
    static func appendOffsets(_ offsets: some Collection<Int>, to bytes: inout [UInt8]) {
        let width = GVariantLayout.offsetWidth(bodySize: bytes.count, count: offsets.count)
        for offset in offsets {
            withUnsafeBytes(of: UInt64(offset).littleEndian) { bytes += $0.prefix(width) }
        }
    }

    static func pad(_ bytes: inout [UInt8], to alignment: Int) {
        bytes += [UInt8](repeating: 0, count: GVariantLayout.align(bytes.count, alignment) - bytes.count)
    }
}
