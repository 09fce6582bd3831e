/// Readers of the small replies many calls share, for `BusObject.send(…decode:)`: each
/// reads its signature's values straight from the body, no value tree made.
enum BasicReplies {
    /// `""`: nothing (the body's exact end is checked after it).
    static func none(_ cursor: inout WireCursor) throws {}

    /// `o`.
    static func path(_ cursor: inout WireCursor) throws -> String {
        try cursor.objectPath()
    }

    /// `s`.
    static func string(_ cursor: inout WireCursor) throws -> String {
        try cursor.string()
    }

    /// `u`.
    static func uint32(_ cursor: inout WireCursor) throws -> UInt32 {
        try cursor.uint32()
    }

    /// `as`.
    static func strings(_ cursor: inout WireCursor) throws -> [String] {
        try cursor.array(alignment: 4) { try $0.string() }
    }

    /// `v` of a property: its value for the few types properties here have, or the type
    /// the peer sent (read and checked, kept nowhere).
    static func property(_ cursor: inout WireCursor) throws -> PropertyValue {
        try cursor.variant { value, type in
            switch type {
            case "b": return .boolean(try value.boolean())
            case "s": return .string(try value.string())
            case "u": return .uint32(try value.uint32())
            case "ao": return .paths(try value.array(alignment: 4) { try $0.objectPath() })
            default:
                try value.skip(type)
                return .other(type)
            }
        }
    }
}

/// A property's value as `BasicReplies.property` reads it.
enum PropertyValue: Sendable {
    case boolean(Bool)
    case string(String)
    case uint32(UInt32)
    case paths([String])
    /// A value of another type, named by its signature.
    case other(String)

    /// The variant's signature.
    var type: String {
        switch self {
        case .boolean: return "b"
        case .string: return "s"
        case .uint32: return "u"
        case .paths: return "ao"
        case .other(let type): return type
        }
    }
}
