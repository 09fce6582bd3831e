import Testing

@testable import SwiftKeyring

/// The D-Bus wire format the bus connection speaks: what `WireWriter` writes, the cursor
/// (`WireCursor`) and the client's typed decoders read back, and what a peer could send
/// malformed is refused where it is read, never read as something else.
@Suite("D-Bus wire format of the bus connection")
struct WireCodecTests {
    private static func cursor(_ bytes: [UInt8], littleEndian: Bool = true) -> WireCursor {
        WireCursor(bytes, from: 0, to: bytes.count, littleEndian: littleEndian)
    }

    @Test("A body written as the calls write it reads back as written")
    func roundTrip() throws {
        var writer = WireWriter()
        writer.string("dh-ietf1024-sha256-aes128-cbc-pkcs7")
        writer.signature("ay")
        writer.byteArray([0, 1, 2, 255])
        writer.stringTable(["tag": "swift-keyring", "key": "ключ 🔑\t"])
        writer.strings(["/org/freedesktop/secrets/collection/login/1"])
        var cursor = Self.cursor(writer.bytes)
        #expect(try cursor.string() == "dh-ietf1024-sha256-aes128-cbc-pkcs7")
        #expect(try cursor.signature() == "ay")
        #expect(try cursor.bytes() == [0, 1, 2, 255])
        #expect(try SecretReplies.stringTable(&cursor) == ["tag": "swift-keyring", "key": "ключ 🔑\t"])
        #expect(try SecretReplies.paths(&cursor) == ["/org/freedesktop/secrets/collection/login/1"])
        try cursor.end()
        // An empty array still pads to its elements' alignment, and the padding is read.
        var empty = WireWriter()
        empty.byte(7)
        empty.stringTable([:])
        #expect(empty.bytes.count == 8)
        var emptyCursor = Self.cursor(empty.bytes)
        #expect(try emptyCursor.byte() == 7)
        #expect(try SecretReplies.stringTable(&emptyCursor) == [:])
        try emptyCursor.end()
    }

    @Test("An item's properties (a{sv}) read into its label and attributes; other properties are read and left")
    func itemProperties() throws {
        var writer = WireWriter()
        writer.array(elementAlignment: 8) { entries in
            entries.fields {
                $0.string("Created")
                $0.variant("t") { created in
                    created.align(8)
                    for byte: UInt8 in [1, 2, 3, 4, 5, 6, 7, 8] { created.byte(byte) }
                }
            }
            entries.fields {
                $0.string("Label")
                $0.variant("s") { $0.string("git: example.com") }
            }
            entries.fields {
                $0.string("Attributes")
                $0.variant("a{ss}") { $0.stringTable(["service": "git", "user": "me"]) }
            }
        }
        var cursor = Self.cursor(writer.bytes)
        let properties = try SecretReplies.itemProperties(&cursor)
        try cursor.end()
        #expect(properties.label == "git: example.com")
        #expect(properties.attributes == ["service": "git", "user": "me"])
    }

    @Test("Unique names: only ':' and two or more elements of the allowed bytes")
    func uniqueNames() {
        for name in [":1.42", ":1.0", ":abc.d-e_f.9"] { #expect(BusNames.isUniqueName(name), "\(name)") }
        for name in ["", ":", ":1", ":1.", ":.1", ";1.7", "org.freedesktop.secrets", ":1..2", ":1.4 2"] {
            #expect(!BusNames.isUniqueName(name), "\(name)")
        }
    }

    @Test("Variants, paths, arrays, booleans and signatures read back into typed values")
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

    @Test("Big-endian bodies read the same")
    func cursorBigEndian() throws {
        var cursor = Self.cursor([0, 0, 0, 2, 0x68, 0x69, 0, 0, 0, 0, 0, 1], littleEndian: false)
        #expect(try cursor.string() == "hi")
        #expect(try cursor.uint32() == 1)
        try cursor.end()
    }

    @Test(
        "Malformed values are refused",
        arguments: [
            ([2, 0, 0, 0, 0x68, 0x69], "s", "no closing NUL"),
            ([2, 0, 0, 0, 0x68, 0x69, 1], "s", "a closing byte that is not NUL"),
            ([2, 0, 0, 0, 0x68, 0x00, 0], "s", "a NUL inside"),
            ([2, 0, 0, 0, 0xC3, 0x28, 0], "s", "invalid UTF-8"),
            ([9, 0, 0, 0, 0x68, 0x69, 0], "s", "a length past the end"),
            ([4, 0, 0, 0, 0x2F, 0x61, 0x27, 0x62, 0], "o", "a path with a quote"),
            ([2, 0, 0, 0], "b", "a boolean that is neither 0 nor 1"),
            ([1, 1, 0, 0, 5, 0, 0, 0], "yu", "non-zero padding"),
            ([8, 0, 0, 0, 1, 0, 0, 0], "ay", "an array longer than the body"),
            ([5, 0, 0, 0, 1, 0, 0, 0, 0x2F, 0, 0, 0], "ao", "elements that do not end where the array does"),
            ([1, 0, 0, 0, 1, 0, 0, 0, 0x2F, 0, 0, 0], "ao", "an array shorter than its element"),
            ([1, 0x73, 0, 0, 0, 0, 0, 0, 0], "v", "a variant of another type than asked"),
            ([2, 0x73, 0x73, 0, 0, 0, 0, 0, 0, 0, 0, 0], "property", "a variant of two types"),
            ([1, 0x7A, 0], "property", "a variant of a type that does not exist"),
            ([1, 0x28, 0], "g", "a signature that is none"),
            ([0, 0, 0, 0, 1], "ao", "bytes after the end"),
            ([0xFF, 0xFF, 0xFF, 0x7F], "ao", "a length past the specification's 64 MiB"),
        ] as [([UInt8], String, String)])
    func malformed(bytes: [UInt8], type: String, wrong: String) {
        #expect(throws: WireCursor.Malformed.self, "\(wrong)") {
            var cursor = Self.cursor(bytes)
            switch type {
            case "s": _ = try cursor.string()
            case "o": _ = try cursor.objectPath()
            case "b": _ = try cursor.boolean()
            case "yu": _ = (try cursor.byte(), try cursor.uint32())
            case "ay": _ = try cursor.bytes()
            case "ao": _ = try SecretReplies.paths(&cursor)
            case "v": _ = try cursor.variant(expecting: "o") { try $0.objectPath() }
            case "property": _ = try BasicReplies.property(&cursor)
            default: _ = try cursor.signature()
            }
            try cursor.end()
        }
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
    func badPathRefused(_ path: String) throws {
        #expect(throws: WireCursor.Malformed.self, "\"\(path)\"") {
            var cursor = Self.cursor(Self.text(path))
            _ = try cursor.objectPath()
        }
        // The same text as a string is no path, and reads.
        var cursor = Self.cursor(Self.text(path))
        #expect(try cursor.string() == path)
        try cursor.end()
    }

    @Test("Valid object paths read")
    func goodPathsRead() throws {
        for path in ["/", "/org/freedesktop/secrets/collection/login/1", "/a_B/9"] {
            var cursor = Self.cursor(Self.text(path))
            #expect(try cursor.objectPath() == path)
            try cursor.end()
        }
    }

    @Test("A signature value that is no signature is refused; a valid one reads")
    func signatures() throws {
        for signature in ["(", "z", "a", "()", "a{", "{ss}", "a{vs}", "a{sss}", "(s"] {
            #expect(throws: WireCursor.Malformed.self, "\(signature)") {
                var cursor = Self.cursor(Self.text(signature, signature: true))
                _ = try cursor.signature()
            }
        }
        for signature in ["", "a{o(oayays)}", "aoao", "vo", "bv", "a{sv}"] {
            var cursor = Self.cursor(Self.text(signature, signature: true))
            #expect(try cursor.signature() == signature)
            try cursor.end()
        }
    }

    @Test("Signatures nested deeper than D-Bus allows (32 arrays, 32 structs) are refused")
    func signaturesTooDeep() throws {
        try WireCursor.checkSignature(String(repeating: "a", count: 32) + "y")
        try WireCursor.checkSignature(String(repeating: "(", count: 32) + "y" + String(repeating: ")", count: 32))
        #expect(throws: WireCursor.Malformed.self) {
            try WireCursor.checkSignature(String(repeating: "a", count: 33) + "y")
        }
        #expect(throws: WireCursor.Malformed.self) {
            try WireCursor.checkSignature(String(repeating: "(", count: 33) + "y" + String(repeating: ")", count: 33))
        }
        // Too deep to read, whatever the bytes: refused before any is read.
        #expect(throws: WireCursor.Malformed.self) {
            var cursor = Self.cursor([0, 0, 0, 0])
            try cursor.skip(String(repeating: "a", count: 70) + "y")
        }
    }

    /// A property (`v`) holding `depth` variants, each the next's, the last a `u`.
    private static func nestedVariants(_ depth: Int) -> [UInt8] {
        var writer = WireWriter()
        for _ in 0..<(depth - 1) { writer.signature("v") }
        writer.signature("u")
        writer.uint32(1)
        return writer.bytes
    }

    @Test("Variants nested past 64 containers are refused where they are read, even 100,000 deep")
    func variantsTooDeep() throws {
        var allowed = Self.cursor(Self.nestedVariants(64))
        #expect(try BasicReplies.property(&allowed).type == "v")
        try allowed.end()
        for depth in [65, 100_000] {
            #expect(throws: WireCursor.Malformed.self, "\(depth) variants") {
                var cursor = Self.cursor(Self.nestedVariants(depth))
                _ = try BasicReplies.property(&cursor)
            }
        }
    }

    @Test("Arrays nested deeper than D-Bus allows are refused, not followed")
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
