import Testing

@testable import SwiftKeyring

/// The D-Bus wire format the bus connection speaks (`WireWriter`, `WireReader`): what it writes
/// reads back, and what a peer could send malformed is refused, never read as something else.
@Suite("D-Bus wire format of the bus connection")
struct WireCodecTests {
    private static func read(_ bytes: [UInt8], _ signature: String, littleEndian: Bool = true) throws -> [WireValue] {
        var reader = WireReader(bytes, from: 0, to: bytes.count, littleEndian: littleEndian)
        let values = try reader.read(signature)
        guard reader.offset == bytes.count else { throw WireReader.Malformed() }
        return values
    }

    @Test("A body written as the calls write it reads back as written")
    func roundTrip() throws {
        var writer = WireWriter()
        writer.string("dh-ietf1024-sha256-aes128-cbc-pkcs7")
        writer.signature("ay")
        writer.byteArray([0, 1, 2, 255])
        writer.array(elementAlignment: 8) { entries in
            for (name, value) in [("tag", "swift-keyring"), ("key", "ключ 🔑\t")] {
                entries.fields {
                    $0.string(name)
                    $0.string(value)
                }
            }
        }
        writer.array(elementAlignment: 4) { $0.string("/org/freedesktop/secrets/collection/login/1") }
        let values = try Self.read(writer.bytes, "sgaya{ss}ao")
        #expect(values[0] == .string("dh-ietf1024-sha256-aes128-cbc-pkcs7"))
        #expect(values[1] == .string("ay"))
        #expect(values[2] == .bytes([0, 1, 2, 255]))
        #expect(
            values[3]
                == .array([
                    .fields([.string("tag"), .string("swift-keyring")]), .fields([.string("key"), .string("ключ 🔑\t")]),
                ]))
        #expect(values[4].strings == ["/org/freedesktop/secrets/collection/login/1"])
        // An empty array still pads to its elements' alignment.
        var empty = WireWriter()
        empty.byte(7)
        empty.array(elementAlignment: 8) { _ in }
        #expect(try Self.read(empty.bytes, "ya{ss}") == [.number(7), .array([])])
    }

    @Test("Big-endian messages read the same")
    func bigEndian() throws {
        // "hi" (length 2, the bytes, NUL), a padding byte, then the number 1: "su" in big-endian order.
        let bytes: [UInt8] = [0, 0, 0, 2, 0x68, 0x69, 0, 0, 0, 0, 0, 1]
        #expect(try Self.read(bytes, "su", littleEndian: false) == [.string("hi"), .number(1)])
    }

    @Test(
        "Malformed values are refused",
        arguments: [
            // (bytes, signature, what is wrong)
            ([2, 0, 0, 0, 0x68, 0x69], "s", "no closing NUL"),
            ([2, 0, 0, 0, 0x68, 0x69, 1], "s", "a closing byte that is not NUL"),
            ([2, 0, 0, 0, 0x68, 0x00, 0], "s", "a NUL inside"),
            ([2, 0, 0, 0, 0xC3, 0x28, 0], "s", "invalid UTF-8"),
            ([9, 0, 0, 0, 0x68, 0x69, 0], "s", "a length past the end"),
            ([2, 0, 0, 0], "b", "a boolean that is neither 0 nor 1"),
            ([1, 1, 0, 0, 5, 0, 0, 0], "yu", "non-zero padding"),
            ([8, 0, 0, 0, 1, 0, 0, 0], "ay", "an array longer than the message"),
            ([2, 0x73, 0x73, 0, 0, 0, 0, 0], "v", "a variant of two types"),
            ([1, 0x7A, 0], "v", "a type that does not exist"),
        ] as [([UInt8], String, String)])
    func malformed(bytes: [UInt8], signature: String, wrong: String) {
        #expect(throws: WireReader.Malformed.self, "\(wrong)") { _ = try Self.read(bytes, signature) }
    }

    @Test("Nesting deeper than D-Bus allows is refused, not followed")
    func tooDeep() {
        let signature = String(repeating: "a", count: 70) + "y"
        #expect(throws: WireReader.Malformed.self) { _ = try Self.read([0, 0, 0, 0], signature) }
    }

    /// An object path or a signature written as a string, as a peer could send it.
    private static func text(_ value: String, signature: Bool = false) -> [UInt8] {
        var writer = WireWriter()
        if signature { writer.signature(value) } else { writer.string(value) }
        return writer.bytes
    }

    @Test(
        "Object paths the spec forbids are refused where they are read",
        arguments: ["", "a/b", "/a/", "//a", "/a'b", "/a b", "/a-b", "/é"])
    func badPathRefused(_ path: String) {
        #expect(throws: WireReader.Malformed.self, "\"\(path)\"") { _ = try Self.read(Self.text(path), "o") }
        // The same text as a string is no path, and reads.
        #expect(throws: Never.self) { _ = try Self.read(Self.text(path), "s") }
    }

    @Test("Valid object paths read")
    func goodPathsRead() throws {
        for path in ["/", "/org/freedesktop/secrets/collection/login/1", "/a_B/9"] {
            #expect(try Self.read(Self.text(path), "o") == [.string(path)])
        }
    }

    @Test("A signature value that is no signature is refused")
    func badSignatureRefused() {
        for signature in ["(", "z", "a", "()"] {
            #expect(throws: WireReader.Malformed.self, "\(signature)") {
                _ = try Self.read(Self.text(signature, signature: true), "g")
            }
        }
    }

    @Test("Unique names: only ':' and two or more elements of the allowed bytes")
    func uniqueNames() {
        for name in [":1.42", ":1.0", ":abc.d-e_f.9"] { #expect(BusNames.isUniqueName(name), "\(name)") }
        for name in ["", ":", ":1", ":1.", ":.1", ";1.7", "org.freedesktop.secrets", ":1..2", ":1.4 2"] {
            #expect(!BusNames.isUniqueName(name), "\(name)")
        }
    }

    // MARK: The cursor reader (`WireCursor`), which reads typed results straight from the bytes

    private static func cursor(_ bytes: [UInt8], littleEndian: Bool = true) -> WireCursor {
        WireCursor(bytes, from: 0, to: bytes.count, littleEndian: littleEndian)
    }

    @Test("Cursor: a body written as the calls write it reads back into typed values")
    func cursorRoundTrip() throws {
        var writer = WireWriter()
        writer.variant("ay") { $0.byteArray([9, 8, 7]) }
        writer.string("/org/freedesktop/secrets/session/1")
        writer.array(elementAlignment: 4) { $0.string("/a/1") }
        writer.array(elementAlignment: 4) { _ in }
        writer.array(elementAlignment: 8) { entries in
            for (name, value) in [("tag", "swift-keyring"), ("key", "ключ 🔑")] {
                entries.fields {
                    $0.string(name)
                    $0.string(value)
                }
            }
        }
        writer.boolean(true)
        writer.signature("a{sv}")
        var cursor = Self.cursor(writer.bytes)
        #expect(try cursor.variant(expecting: "ay") { try $0.bytes() } == [9, 8, 7])
        #expect(try cursor.objectPath() == "/org/freedesktop/secrets/session/1")
        #expect(try cursor.array(alignment: 4) { try $0.objectPath() } == ["/a/1"])
        #expect(try cursor.array(alignment: 4) { try $0.objectPath() } == [])
        let table = try cursor.array(alignment: 8) { entry in
            try entry.structure { [try $0.string(), try $0.string()] }
        }
        #expect(table == [["tag", "swift-keyring"], ["key", "ключ 🔑"]])
        #expect(try cursor.boolean())
        #expect(try cursor.signature() == "a{sv}")
        try cursor.end()
    }

    @Test("Cursor: big-endian bodies read the same")
    func cursorBigEndian() throws {
        var cursor = Self.cursor([0, 0, 0, 2, 0x68, 0x69, 0, 0, 0, 0, 0, 1], littleEndian: false)
        #expect(try cursor.string() == "hi")
        #expect(try cursor.uint32() == 1)
        try cursor.end()
    }

    @Test(
        "Cursor: malformed values are refused",
        arguments: [
            ([2, 0, 0, 0, 0x68, 0x69], "s", "no closing NUL"),
            ([2, 0, 0, 0, 0x68, 0x00, 0], "s", "a NUL inside"),
            ([2, 0, 0, 0, 0xC3, 0x28, 0], "s", "invalid UTF-8"),
            ([9, 0, 0, 0, 0x68, 0x69, 0], "s", "a length past the end"),
            ([4, 0, 0, 0, 0x2F, 0x61, 0x27, 0x62, 0], "o", "a path with a quote"),
            ([2, 0, 0, 0], "b", "a boolean that is neither 0 nor 1"),
            ([8, 0, 0, 0, 1, 0, 0, 0], "ay", "an array longer than the body"),
            ([5, 0, 0, 0, 1, 0, 0, 0, 0x2F, 0, 0, 0], "ao", "elements that do not end where the array does"),
            ([1, 0, 0, 0, 1, 0, 0, 0, 0x2F, 0, 0, 0], "ao", "an array shorter than its element"),
            ([1, 0x73, 0, 0, 0, 0, 0, 0, 0], "v", "a variant of another type than asked"),
            ([1, 0x28, 0], "g", "a signature that is none"),
            ([0, 0, 0, 0, 1], "ao", "bytes after the end"),
            ([0xFF, 0xFF, 0xFF, 0x7F], "ao", "a length past the specification's 64 MiB"),
        ] as [([UInt8], String, String)])
    func cursorMalformed(bytes: [UInt8], type: String, wrong: String) {
        #expect(throws: WireCursor.Malformed.self, "\(wrong)") {
            var cursor = Self.cursor(bytes)
            switch type {
            case "s": _ = try cursor.string()
            case "o": _ = try cursor.objectPath()
            case "b": _ = try cursor.boolean()
            case "ay": _ = try cursor.bytes()
            case "ao": _ = try cursor.array(alignment: 4) { try $0.objectPath() }
            case "v": _ = try cursor.variant(expecting: "o") { try $0.objectPath() }
            default: _ = try cursor.signature()
            }
            try cursor.end()
        }
    }

    @Test("Cursor: nesting deeper than D-Bus allows is refused, not followed")
    func cursorTooDeep() throws {
        /// Reads arrays nested `depth` deep, each holding the next.
        func nested(_ depth: Int) throws {
            var writer = WireWriter()
            func write(_ level: Int, _ writer: inout WireWriter) {
                writer.array(elementAlignment: 4) { if level > 1 { write(level - 1, &$0) } else { $0.uint32(1) } }
            }
            write(depth, &writer)
            var cursor = Self.cursor(writer.bytes)
            func read(_ level: Int, _ cursor: inout WireCursor) throws {
                try cursor.arrayElements(alignment: 4) { if level > 1 { try read(level - 1, &$0) } else { _ = try $0.uint32() } }
            }
            try read(depth, &cursor)
            try cursor.end()
        }
        try nested(32)
        #expect(throws: WireCursor.Malformed.self) { try nested(33) }
    }
}
