/// Reads a message body where it lies, by index, straight into the values of a call's
/// typed result: no value tree is made of the body, and nothing is allocated for a length
/// before that length is checked against the bytes that remain.
///
/// The specification's rules are held as each value is read: numbers aligned to their
/// size with zero padding, booleans 0 or 1, strings valid UTF-8 without NUL and with their
/// NUL after them, object paths and signatures valid, an array's length within the bytes
/// that remain and its elements ending exactly where it ends, nesting within 32 arrays and
/// 32 structs (64 containers in all, variants included), and the body read to its exact end
/// (`end()`). Whatever breaks one of them throws `Malformed`, never traps.
struct WireCursor {
    /// What bytes that break the wire format, or are not of the type the caller reads, give.
    struct Malformed: Error {}

    private let storage: [UInt8]
    /// Where the message (or body) starts in `bytes`: alignment counts from there.
    private let origin: Int
    private(set) var offset: Int
    /// Where reading must stop: the body's end, or the end of the array being read.
    private var limit: Int
    private let littleEndian: Bool
    private var arrays = 0
    private var structs = 0
    private var containers = 0

    /// The specification's nesting limits.
    private static let maximumArrays = 32
    private static let maximumStructs = 32
    private static let maximumContainers = 64
    /// The specification's largest array: 64 MiB.
    private static let maximumArrayLength = 1 << 26

    /// A cursor over `storage[start..<end]`, alignment counted from `origin` (the body's start
    /// when nil).
    init(_ bytes: [UInt8], from start: Int, to end: Int, origin: Int? = nil, littleEndian: Bool) {
        storage = bytes
        self.origin = origin ?? start
        offset = max(0, start)
        limit = min(max(end, offset), bytes.count)
        self.littleEndian = littleEndian
    }

    /// How many bytes remain before the end (of the body, or of the array being read).
    var remaining: Int { limit - offset }

    // MARK: Fixed-size values

    mutating func byte() throws -> UInt8 {
        guard offset < limit else { throw Malformed() }
        defer { offset += 1 }
        return storage[offset]
    }

    /// `b`: 0 or 1 in four bytes, nothing else.
    mutating func boolean() throws -> Bool {
        let value = try number(4)
        guard value <= 1 else { throw Malformed() }
        return value == 1
    }

    mutating func uint32() throws -> UInt32 {
        UInt32(truncatingIfNeeded: try number(4))
    }

    /// An unsigned number of `size` (1, 2, 4 or 8) bytes, aligned to its size.
    mutating func number(_ size: Int) throws -> UInt64 {
        try align(size)
        guard size <= limit - offset else { throw Malformed() }
        var value: UInt64 = 0
        for index in 0..<size {
            value = value << 8 | UInt64(storage[offset + (littleEndian ? size - 1 - index : index)])
        }
        offset += size
        return value
    }

    /// Skips the padding before a value aligned to `boundary`; the padding must be zeros.
    mutating func align(_ boundary: Int) throws {
        let padding = (boundary - (offset - origin) % boundary) % boundary
        guard padding <= limit - offset else { throw Malformed() }
        for index in offset..<offset + padding where storage[index] != 0 { throw Malformed() }
        offset += padding
    }

    // MARK: Strings

    /// `s`: UTF-8 text without NUL.
    mutating func string() throws -> String {
        try text(Int(try uint32())) { _ in true }
    }

    /// `o`: a valid object path, checked on its bytes before any text is made of them.
    mutating func objectPath() throws -> String {
        try text(Int(try uint32())) { BusNames.isObjectPath($0) }
    }

    /// `g`: a valid signature.
    mutating func signature() throws -> String {
        let signature = try text(Int(try byte())) { _ in true }
        try Self.checkSignature(signature)
        return signature
    }

    /// `length` bytes that pass `valid`, are UTF-8 without NUL, and have a NUL after them.
    private mutating func text(_ length: Int, _ valid: (ArraySlice<UInt8>) -> Bool) throws -> String {
        guard length >= 0, length < limit - offset, storage[offset + length] == 0 else { throw Malformed() }
        let slice = storage[offset..<offset + length]
        guard valid(slice), !slice.contains(0), let text = ExactUTF8.string(slice) else {
            throw Malformed()
        }
        offset += length + 1
        return text
    }

    // MARK: Byte arrays

    /// `ay`: hands its bytes to `body` where they lie (to be copied into a buffer the caller
    /// wipes, say), with no copy made here.
    mutating func withBytes<Result>(_ body: (ArraySlice<UInt8>) throws -> Result) throws -> Result {
        let length = try arrayLength()
        let start = offset
        offset += length
        return try body(storage[start..<start + length])
    }

    /// `ay`, copied out: for values that are no secret (a secret goes through `withBytes`).
    mutating func bytes() throws -> [UInt8] {
        try withBytes { Array($0) }
    }

    // MARK: Containers

    /// An array whose elements align to `alignment` (8 for structs and dictionary entries,
    /// 4 for strings and paths), each read by `element`, which must read exactly the bytes
    /// of one element: the elements must end exactly where the array does.
    mutating func arrayElements(alignment: Int, _ element: (inout WireCursor) throws -> Void) throws {
        let length = try arrayLength(alignment: alignment)
        try nest(array: true) { cursor in
            let stop = cursor.offset + length
            let outer = cursor.limit
            cursor.limit = stop
            defer { cursor.limit = outer }
            while cursor.offset < stop {
                let before = cursor.offset
                try element(&cursor)
                // An element of no bytes would never end the array.
                guard cursor.offset > before else { throw Malformed() }
            }
        }
    }

    /// As `arrayElements(alignment:_:)`, collecting what `element` gives for each element.
    mutating func array<Element>(alignment: Int, _ element: (inout WireCursor) throws -> Element) throws -> [Element] {
        var elements: [Element] = []
        try arrayElements(alignment: alignment) { elements.append(try element(&$0)) }
        return elements
    }

    /// A struct or a dictionary entry: aligned to 8, its fields read by `fields`.
    mutating func structure<Result>(_ fields: (inout WireCursor) throws -> Result) throws -> Result {
        try align(8)
        return try nest(array: false, fields)
    }

    /// `v`: its signature, handed to `value` with the cursor at its value, which `value`
    /// must read (or `skip(_:)`) whole.
    mutating func variant<Result>(_ value: (inout WireCursor, String) throws -> Result) throws -> Result {
        let signature = try self.signature()
        containers += 1
        defer { containers -= 1 }
        guard containers <= Self.maximumContainers else { throw Malformed() }
        return try value(&self, signature)
    }

    /// `v` holding a value of exactly `signature` (a variant of any other type is
    /// `Malformed`: the caller reads one type), read by `value`.
    mutating func variant<Result>(
        expecting signature: String, _ value: (inout WireCursor) throws -> Result
    ) throws -> Result {
        try variant { cursor, found in
            guard found == signature else { throw Malformed() }
            return try value(&cursor)
        }
    }

    /// Reads past one value of the complete type `signature`, checked as any read is, and
    /// makes nothing of it: for a value no caller reads (a property's other type, a greeting).
    mutating func skip(_ signature: String) throws {
        try Self.checkSignature(signature)
        var types = Array(signature.utf8)[...]
        try skipValue(&types)
        guard types.isEmpty else { throw Malformed() }
    }

    private mutating func skipValue(_ types: inout ArraySlice<UInt8>) throws {
        guard let code = types.popFirst() else { throw Malformed() }
        switch code {
        case UInt8(ascii: "y"): _ = try byte()
        case UInt8(ascii: "b"): _ = try boolean()
        case UInt8(ascii: "n"), UInt8(ascii: "q"): _ = try number(2)
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"): _ = try number(8)
        case UInt8(ascii: "s"): _ = try string()
        case UInt8(ascii: "o"): _ = try objectPath()
        case UInt8(ascii: "g"): _ = try signature()
        case UInt8(ascii: "v"): try variant { cursor, inner in try cursor.skip(inner) }
        case UInt8(ascii: "a"):
            let element = try Self.completeType(&types)
            try arrayElements(alignment: Self.alignment(of: element.first!)) { cursor in
                var inner = element
                try cursor.skipValue(&inner)
            }
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            let close = code == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            try structure { cursor in
                while types.first != close {
                    guard !types.isEmpty else { throw Malformed() }
                    try cursor.skipValue(&types)
                }
            }
            types.removeFirst()
        default: _ = try number(4)
        }
    }

    /// Takes one complete type off the front of `types` (an array's element).
    static func completeType(_ types: inout ArraySlice<UInt8>) throws -> ArraySlice<UInt8> {
        let original = types
        try skipType(&types)
        return original[original.startIndex..<types.startIndex]
    }

    private static func skipType(_ types: inout ArraySlice<UInt8>) throws {
        guard let code = types.popFirst() else { throw Malformed() }
        switch code {
        case UInt8(ascii: "a"):
            try skipType(&types)
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            let close = code == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            while types.first != close {
                guard !types.isEmpty else { throw Malformed() }
                try skipType(&types)
            }
            types.removeFirst()
        default:
            break
        }
    }

    /// The alignment of a value whose type starts with `code`.
    static func alignment(of code: UInt8) -> Int {
        switch code {
        case UInt8(ascii: "y"), UInt8(ascii: "g"), UInt8(ascii: "v"): return 1
        case UInt8(ascii: "n"), UInt8(ascii: "q"): return 2
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): return 8
        default: return 4
        }
    }

    /// Checks that the body has been read to its exact end.
    func end() throws {
        guard offset == limit else { throw Malformed() }
    }

    /// An array's length, checked against the bytes that remain after the padding before
    /// its first element (`alignment`) before anything is made for it.
    private mutating func arrayLength(alignment: Int = 1) throws -> Int {
        let length = Int(try uint32())
        guard length <= Self.maximumArrayLength else { throw Malformed() }
        try align(alignment)
        guard length <= limit - offset else { throw Malformed() }
        return length
    }

    private mutating func nest<Result>(array: Bool, _ body: (inout WireCursor) throws -> Result) throws -> Result {
        if array { arrays += 1 } else { structs += 1 }
        containers += 1
        defer {
            if array { arrays -= 1 } else { structs -= 1 }
            containers -= 1
        }
        guard arrays <= Self.maximumArrays, structs <= Self.maximumStructs, containers <= Self.maximumContainers else {
            throw Malformed()
        }
        return try body(&self)
    }

    // MARK: Signatures

    /// Refuses a signature D-Bus does not allow: longer than 255, an unknown type code, an
    /// empty or unclosed struct, a dictionary entry outside an array or not of a basic key
    /// and one value, or more than 32 arrays or 32 structs nested.
    static func checkSignature(_ signature: String) throws {
        let codes = Array(signature.utf8)
        guard codes.count <= 255 else { throw Malformed() }
        var types = codes[...]
        while !types.isEmpty { try checkType(&types, arrays: 0, structs: 0) }
    }

    private static func checkType(_ types: inout ArraySlice<UInt8>, arrays: Int, structs: Int, inArray: Bool = false)
        throws
    {
        guard arrays <= maximumArrays, structs <= maximumStructs, let code = types.popFirst() else {
            throw Malformed()
        }
        switch code {
        case UInt8(ascii: "a"):
            try checkType(&types, arrays: arrays + 1, structs: structs, inArray: true)
        case UInt8(ascii: "("):
            var fields = 0
            while types.first != UInt8(ascii: ")") {
                try checkType(&types, arrays: arrays, structs: structs + 1)
                fields += 1
            }
            types.removeFirst()
            guard fields > 0 else { throw Malformed() }
        case UInt8(ascii: "{"):
            // A dictionary entry: an array's element only, of a basic key and one value.
            guard inArray, let key = types.first, basicCodes.contains(key) else { throw Malformed() }
            try checkType(&types, arrays: arrays, structs: structs + 1)
            try checkType(&types, arrays: arrays, structs: structs + 1)
            guard types.popFirst() == UInt8(ascii: "}") else { throw Malformed() }
        case UInt8(ascii: "v"):
            break
        default:
            guard basicCodes.contains(code) else { throw Malformed() }
        }
    }

    /// The basic types' codes: a dictionary's keys are of one of them.
    private static let basicCodes: [UInt8] = Array("ybnqiuxtdhsog".utf8)
}
