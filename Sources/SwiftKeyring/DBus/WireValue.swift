/// A value in the D-Bus wire format, as `WireReader` reads it from a peer's message.
///
/// A message `BusConnection` keeps is read into this, by its signature, and checked as it
/// is read: lengths within the message, strings valid UTF-8 without NUL, booleans 0 or 1,
/// object paths and signatures valid, nesting bounded. Callers then take what a reply must
/// hold with the accessors below, which give `nil` for a value of another type.
indirect enum WireValue: Equatable, Sendable {
    /// Any fixed-size number (`y`, `n`, `q`, `i`, `u`, `x`, `t`, `h`, `d` as its bits).
    case number(UInt64)
    case boolean(Bool)
    /// `s`, `o` and `g`.
    case string(String)
    /// `ay`, kept as bytes.
    case bytes([UInt8])
    case array([WireValue])
    /// A struct or a dictionary entry.
    case fields([WireValue])
    /// A variant: its signature and its value.
    case variant(String, WireValue)

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var number: UInt64? {
        if case .number(let value) = self { return value }
        return nil
    }

    var boolean: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    /// A variant's value, when its signature is `signature`.
    func variant(_ signature: String) -> WireValue? {
        if case .variant(signature, let value) = self { return value }
        return nil
    }

    /// A dictionary of strings to strings (`a{ss}`); `nil` for anything else.
    var stringTable: [String: String]? {
        guard let array else { return nil }
        var table: [String: String] = [:]
        for entry in array {
            guard let pair = entry.fields, pair.count == 2, let name = pair[0].string, let value = pair[1].string else {
                return nil
            }
            table[name] = value
        }
        return table
    }

    /// The value under `name` in a dictionary of strings to variants (`a{sv}`), unboxed.
    func entry(_ name: String) -> WireValue? {
        for entry in array ?? [] {
            if let pair = entry.fields, pair.count == 2, pair[0].string == name, case .variant(_, let value) = pair[1] {
                return value
            }
        }
        return nil
    }

    var bytes: [UInt8]? {
        if case .bytes(let value) = self { return value }
        return nil
    }

    var array: [WireValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    var fields: [WireValue]? {
        if case .fields(let value) = self { return value }
        return nil
    }

    /// The strings of an array of strings or object paths; `nil` for anything else.
    var strings: [String]? {
        guard let array else { return nil }
        var strings: [String] = []
        for element in array {
            guard let string = element.string else { return nil }
            strings.append(string)
        }
        return strings
    }
}

/// Reads `WireValue`s from a message body (or header) in either byte order, by signature.
/// Every read is bounds-checked: a malformed message throws `WireReader.Malformed`.
struct WireReader {
    /// What a message that breaks the wire format gives: the cursor reader's error.
    typealias Malformed = WireCursor.Malformed

    private let bytes: [UInt8]
    /// Where the message starts in `bytes`: alignment counts from there.
    private let origin: Int
    private(set) var offset: Int
    private let end: Int
    private let littleEndian: Bool

    /// Nesting the specification allows: 32 arrays and 32 structs.
    private static let maximumDepth = 64

    init(_ bytes: [UInt8], from start: Int, to end: Int, origin: Int = 0, littleEndian: Bool) {
        self.bytes = bytes
        self.origin = origin
        offset = start
        self.end = end
        self.littleEndian = littleEndian
    }

    /// Reads one complete type from `signature`; the rest of the body is left to the caller.
    mutating func read(_ signature: String) throws -> [WireValue] {
        try Self.check(signature)
        var types = Array(signature.utf8)[...]
        var values: [WireValue] = []
        while !types.isEmpty {
            values.append(try readValue(&types, depth: 0))
        }
        return values
    }

    private mutating func readValue(_ types: inout ArraySlice<UInt8>, depth: Int) throws -> WireValue {
        guard depth < Self.maximumDepth, let code = types.popFirst() else { throw Malformed() }
        switch code {
        case UInt8(ascii: "y"): return .number(UInt64(try byte()))
        case UInt8(ascii: "b"):
            let value = try number(4)
            guard value <= 1 else { throw Malformed() }
            return .boolean(value == 1)
        case UInt8(ascii: "n"), UInt8(ascii: "q"): return .number(try number(2))
        case UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "h"): return .number(try number(4))
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"): return .number(try number(8))
        case UInt8(ascii: "s"): return .string(try text(length: Int(try number(4))))
        case UInt8(ascii: "o"):
            // A path is checked here, before anyone calls it or quotes it in a match rule.
            return .string(try text(length: Int(try number(4)), isPath: true))
        case UInt8(ascii: "g"):
            let signature = try text(length: Int(try byte()))
            try Self.check(signature)
            return .string(signature)
        case UInt8(ascii: "v"):
            let signature = try text(length: Int(try byte()))
            try Self.check(signature)
            var inner = Array(signature.utf8)[...]
            let value = try readValue(&inner, depth: depth + 1)
            guard inner.isEmpty else { throw Malformed() }
            return .variant(signature, value)
        case UInt8(ascii: "a"):
            let length = Int(try number(4))
            guard length <= 1 << 26 else { throw Malformed() }
            let element = try Self.completeType(&types)
            try align(Self.alignment(of: element.first!))
            let stop = offset + length
            guard stop <= end else { throw Malformed() }
            if element == [UInt8(ascii: "y")][...] {
                let value = Array(bytes[offset..<stop])
                offset = stop
                return .bytes(value)
            }
            var elements: [WireValue] = []
            while offset < stop {
                var inner = element
                elements.append(try readValue(&inner, depth: depth + 1))
            }
            guard offset == stop else { throw Malformed() }
            return .array(elements)
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            let close = code == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            try align(8)
            var fields: [WireValue] = []
            while types.first != close {
                guard !types.isEmpty else { throw Malformed() }
                fields.append(try readValue(&types, depth: depth + 1))
            }
            types.removeFirst()
            guard !fields.isEmpty else { throw Malformed() }
            return .fields(fields)
        default:
            throw Malformed()
        }
    }

    private static func check(_ signature: String) throws {
        try WireCursor.checkSignature(signature)
    }

    private static func completeType(_ types: inout ArraySlice<UInt8>) throws -> ArraySlice<UInt8> {
        try WireCursor.completeType(&types)
    }

    static func alignment(of code: UInt8) -> Int {
        WireCursor.alignment(of: code)
    }

    /// Skips the padding before a value aligned to `boundary`; the padding must be zeros.
    mutating func align(_ boundary: Int) throws {
        let padding = (boundary - (offset - origin) % boundary) % boundary
        guard offset + padding <= end else { throw Malformed() }
        for index in offset..<offset + padding where bytes[index] != 0 { throw Malformed() }
        offset += padding
    }

    mutating func byte() throws -> UInt8 {
        guard offset < end else { throw Malformed() }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// An unsigned number of `size` bytes, aligned to its size.
    mutating func number(_ size: Int) throws -> UInt64 {
        try align(size)
        guard offset + size <= end else { throw Malformed() }
        var value: UInt64 = 0
        for index in 0..<size {
            let byte = UInt64(bytes[offset + (littleEndian ? size - 1 - index : index)])
            value = value << 8 | byte
        }
        offset += size
        return value
    }

    /// `length` bytes of UTF-8 text and the NUL after them.
    /// With `isPath`, the bytes must be an object path (checked before any text is made of them).
    private mutating func text(length: Int, isPath: Bool = false) throws -> String {
        guard length >= 0, offset + length < end, bytes[offset + length] == 0 else { throw Malformed() }
        let slice = bytes[offset..<offset + length]
        guard !isPath || BusNames.isObjectPath(slice) else { throw Malformed() }
        guard !slice.contains(0), let text = String(validating: slice, as: UTF8.self) else { throw Malformed() }
        offset += length + 1
        return text
    }
}
