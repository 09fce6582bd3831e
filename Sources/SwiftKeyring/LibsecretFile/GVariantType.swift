/// The few GVariant types libsecret's keyring file is made of, with what GVariant's
/// serialisation needs to know of each: its alignment and, for fixed-size types, its size.
///
/// Only these: the file is read and written without GLib, so an app that uses only the
/// libsecret file store never loads the desktop's libraries.
indirect enum GVariantType: Sendable, Equatable {
    /// `y`
    case byte
    /// `u`, little-endian
    case uint32
    /// `t`, little-endian
    case uint64
    /// `s`: UTF-8, NUL-terminated
    case string
    /// `aX`
    case array(GVariantType)
    /// `(…)`
    case tuple([GVariantType])
    /// `{KV}`, serialised as a two-member tuple
    case dictEntry(GVariantType, GVariantType)

    /// The alignment of the type's serialised form, in bytes.
    var alignment: Int {
        switch self {
        case .byte, .string: return 1
        case .uint32: return 4
        case .uint64: return 8
        case .array(let element): return element.alignment
        case .tuple(let members): return members.map(\.alignment).max() ?? 1
        case .dictEntry(let key, let value): return max(key.alignment, value.alignment)
        }
    }

    /// The size of every value of the type, or `nil` when values differ in size.
    var fixedSize: Int? {
        switch self {
        case .byte: return 1
        case .uint32: return 4
        case .uint64: return 8
        case .string, .array: return nil
        case .tuple(let members): return Self.fixedSize(of: members)
        case .dictEntry(let key, let value): return Self.fixedSize(of: [key, value])
        }
    }

    /// The members of a tuple or dictionary entry.
    var members: [GVariantType] {
        switch self {
        case .tuple(let members): return members
        case .dictEntry(let key, let value): return [key, value]
        default: return []
        }
    }

    /// A tuple of fixed-size members is itself fixed: the members, each aligned, padded to the
    /// tuple's alignment (the unit tuple takes one byte, but this format has none).
    private static func fixedSize(of members: [GVariantType]) -> Int? {
        var size = 0
        for member in members {
            guard let memberSize = member.fixedSize else { return nil }
            size = GVariantLayout.align(size, member.alignment) + memberSize
        }
        let alignment = members.map(\.alignment).max() ?? 1
        return max(GVariantLayout.align(size, alignment), 1)
    }
}

/// GVariant's arithmetic of alignment and framing offsets, shared by the encoder and the decoder.
enum GVariantLayout {
    /// `position` rounded up to a multiple of `alignment` (1, 2, 4 or 8).
    static func align(_ position: Int, _ alignment: Int) -> Int {
        (position + alignment - 1) & ~(alignment - 1)
    }

    /// The width of each framing offset in a container of `size` bytes, as a reader sees it:
    /// the smallest of 1, 2, 4 and 8 bytes that can hold the size (0 for an empty container).
    static func offsetWidth(containerSize size: Int) -> Int {
        if size == 0 { return 0 }
        if size <= 0xFF { return 1 }
        if size <= 0xFFFF { return 2 }
        if size <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    /// The width a writer picks for `count` offsets after `bodySize` bytes: the smallest
    /// with which the whole container's size still reads back as that width.
    static func offsetWidth(bodySize: Int, count: Int) -> Int {
        if count == 0 { return 0 }
        for width in [1, 2, 4] where offsetWidth(containerSize: bodySize + count * width) <= width {
            return width
        }
        return 8
    }
}
