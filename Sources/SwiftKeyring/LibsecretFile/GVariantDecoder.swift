/// Reads the GVariant values of libsecret's keyring file from bytes that came from a
/// file anyone may have changed: every size, offset, alignment and padding byte is
/// checked against GVariant's normal form (what GLib writes), so a changed byte is
/// an error rather than another reading, and nothing is allocated or looped over
/// beyond what the bytes themselves hold.
///
/// Values are found as ranges of one buffer, so a decrypted item is parsed where it
/// lies (in secure memory) and its secret is copied out only when asked for.
struct GVariantDecoder {
    let bytes: UnsafeRawBufferPointer

    /// Why the bytes are not the value expected; the caller names the file.
    struct Malformed: Error {
        let reason: String
    }

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The ranges of a tuple's (or dictionary entry's) members, in order.
    func members(of type: GVariantType, in range: Range<Int>) throws -> [Range<Int>] {
        let types = type.members
        let size = range.count
        if let fixed = type.fixedSize, size != fixed {
            throw Malformed(reason: "a fixed-size tuple is \(size) bytes, not \(fixed)")
        }
        let width = GVariantLayout.offsetWidth(containerSize: size)
        let framed = types.dropLast().filter { $0.fixedSize == nil }.count
        let offsetsStart = size - framed * width
        guard offsetsStart >= 0 else { throw Malformed(reason: "a tuple is too short for its framing offsets") }
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(types.count)
        var position = 0
        var offsetIndex = 0
        for (index, memberType) in types.enumerated() {
            let start = GVariantLayout.align(position, memberType.alignment)
            guard start <= offsetsStart else { throw Malformed(reason: "a tuple member starts past its end") }
            try requireZero(range.lowerBound + position..<range.lowerBound + start)
            let end: Int
            if let fixed = memberType.fixedSize {
                end = start + fixed
            } else if index == types.count - 1 {
                end = offsetsStart
            } else {
                offsetIndex += 1
                end = try offset(at: range.lowerBound + size - offsetIndex * width, width: width)
            }
            guard end >= start, end <= offsetsStart else {
                throw Malformed(reason: "a tuple member's framing offset points outside the tuple")
            }
            ranges.append(range.lowerBound + start..<range.lowerBound + end)
            position = end
        }
        if type.fixedSize != nil {
            try requireZero(range.lowerBound + position..<range.upperBound)
        } else if position != offsetsStart {
            throw Malformed(reason: "a tuple has bytes after its last member")
        }
        return ranges
    }

    /// Calls `body` with the range of each element of an array of `element`, in order,
    /// stopping at the first error: a crafted count costs no more than its bytes.
    func forEachElement(of element: GVariantType, in range: Range<Int>, _ body: (Range<Int>) throws -> Void) throws {
        let size = range.count
        if let fixed = element.fixedSize {
            guard size % fixed == 0 else { throw Malformed(reason: "an array's size is not a multiple of its elements'") }
            for start in stride(from: range.lowerBound, to: range.upperBound, by: fixed) {
                try body(start..<start + fixed)
            }
            return
        }
        guard size > 0 else { return }
        let width = GVariantLayout.offsetWidth(containerSize: size)
        let offsetsStart = try offset(at: range.upperBound - width, width: width)
        guard offsetsStart <= size - width, (size - offsetsStart) % width == 0 else {
            throw Malformed(reason: "an array's framing offsets do not fit it")
        }
        let count = (size - offsetsStart) / width
        var position = 0
        for index in 0..<count {
            let start = GVariantLayout.align(position, element.alignment)
            let end = try offset(at: range.lowerBound + offsetsStart + index * width, width: width)
            guard start <= end, end <= offsetsStart else {
                throw Malformed(reason: "an array element's framing offset points outside the array")
            }
            try requireZero(range.lowerBound + position..<range.lowerBound + start)
            try body(range.lowerBound + start..<range.lowerBound + end)
            position = end
        }
    }

    func uint32(_ range: Range<Int>) throws -> UInt32 {
        guard range.count == 4 else { throw Malformed(reason: "a 32-bit number is \(range.count) bytes") }
        return UInt32(truncatingIfNeeded: littleEndian(range))
    }

    func uint64(_ range: Range<Int>) throws -> UInt64 {
        guard range.count == 8 else { throw Malformed(reason: "a 64-bit number is \(range.count) bytes") }
        return littleEndian(range)
    }

    /// A string: UTF-8 ending in its one NUL.
    func string(_ range: Range<Int>) throws -> String {
        guard let last = range.last, bytes[last] == 0 else { throw Malformed(reason: "a string does not end in NUL") }
        let text = UnsafeRawBufferPointer(rebasing: bytes[range.lowerBound..<last])
        guard !text.contains(0) else { throw Malformed(reason: "a string holds a NUL") }
        guard let string = ExactUTF8.string(text.assumingMemoryBound(to: UInt8.self)) else {
            throw Malformed(reason: "a string is not UTF-8")
        }
        return string
    }

    /// The bytes of an `ay`.
    func byteArray(_ range: Range<Int>) -> [UInt8] {
        Array(bytes[range])
    }

    private func offset(at position: Int, width: Int) throws -> Int {
        guard width > 0 else { return 0 }
        let value = littleEndian(position..<position + width)
        guard value <= UInt64(Int.max) else { throw Malformed(reason: "a framing offset is out of range") }
        return Int(value)
    }

    private func littleEndian(_ range: Range<Int>) -> UInt64 {
        var value: UInt64 = 0
        for (shift, index) in range.enumerated() { value |= UInt64(bytes[index]) << (8 * shift) }
        return value
    }

    /// GVariant's normal form pads with zeros; anything else is a changed byte.
    private func requireZero(_ range: Range<Int>) throws {
        guard bytes[range].allSatisfy({ $0 == 0 }) else { throw Malformed(reason: "padding bytes are not zero") }
    }
}
