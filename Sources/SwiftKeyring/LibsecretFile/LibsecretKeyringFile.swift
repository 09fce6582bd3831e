/// libsecret's keyring file (`GnomeKeyring` version 1.0), as bytes: the plaintext header
/// and the items, each still sealed. `docs/LIBSECRET_FILE_FORMAT.md` describes it, with
/// the bounds `decode` enforces.
struct LibsecretKeyringFile: Sendable, Equatable {
    /// The 16 bytes every version of the format starts with.
    static let magic: [UInt8] = Array("GnomeKeyring\n\r".utf8) + [0, 0x0A]
    /// The major and minor version libsecret writes and reads (gnome-keyring's own files are 0).
    static let version: [UInt8] = [1, 0]
    /// The salt libsecret makes for a new file.
    static let saltLength = 32
    /// The iteration count libsecret writes for a new file.
    static let defaultIterations: UInt32 = 100_000
    /// The iteration counts read: libsecret's, and up to ten times more; below or above is
    /// a changed or crafted file, refused before any key is derived (1,000,000 rounds take about 0.3 s).
    static let iterationRange: ClosedRange<UInt32> = 1_000...1_000_000
    /// The salt lengths read.
    static let saltLengthRange = 8...1_024
    /// The largest file read: far above any keyring a person keeps, small enough to hold in memory.
    static let maximumBytes = 32 * 1024 * 1024

    /// `(uayutua(a{say}ay))`, after the magic and the version.
    static let bodyType = GVariantType.tuple([.uint32, .array(.byte), .uint32, .uint64, .uint32, .array(itemType)])
    /// `(a{say}ay)`: one item's hashed attributes and its sealed blob.
    static let itemType = GVariantType.tuple([hashedAttributesType, .array(.byte)])
    /// `a{say}`: attribute names, each with HMAC-SHA256(key, value).
    static let hashedAttributesType = GVariantType.array(.dictEntry(.string, .array(.byte)))

    var salt: [UInt8]
    var iterations: UInt32
    /// Seconds since 1970 of the last write; not authenticated, and only informative.
    var modified: UInt64
    /// How many writes the file has seen; not authenticated, and only informative.
    var usageCount: UInt32
    var items: [Item]

    /// One item as the file holds it.
    struct Item: Sendable, Equatable {
        /// Attribute names in plain text, each with the MAC of its value, sorted by name.
        var hashedAttributes: [(name: String, mac: [UInt8])]
        /// AES-CBC ciphertext ‖ IV ‖ HMAC-SHA256(ciphertext ‖ IV).
        var blob: [UInt8]

        static func == (left: Item, right: Item) -> Bool {
            left.blob == right.blob
                && left.hashedAttributes.elementsEqual(right.hashedAttributes) { $0.name == $1.name && $0.mac == $1.mac }
        }
    }

    /// An empty keyring with a fresh salt, as libsecret makes one.
    static func new(salt: [UInt8], now: UInt64) -> LibsecretKeyringFile {
        LibsecretKeyringFile(salt: salt, iterations: defaultIterations, modified: now, usageCount: 0, items: [])
    }

    /// The file's bytes.
    func encoded() -> [UInt8] {
        let items = self.items.map { item in
            let attributes = item.hashedAttributes.map { name, mac in
                GVariantEncoder.tuple([(.string, GVariantEncoder.string(name)), (.array(.byte), mac)])
            }
            return GVariantEncoder.tuple([
                (Self.hashedAttributesType, GVariantEncoder.array(of: .dictEntry(.string, .array(.byte)), attributes)),
                (.array(.byte), item.blob),
            ])
        }
        let body = GVariantEncoder.tuple([
            (.uint32, GVariantEncoder.uint32(UInt32(salt.count))),
            (.array(.byte), salt),
            (.uint32, GVariantEncoder.uint32(iterations)),
            (.uint64, GVariantEncoder.uint64(modified)),
            (.uint32, GVariantEncoder.uint32(usageCount)),
            (.array(Self.itemType), GVariantEncoder.array(of: Self.itemType, items)),
        ])
        return Self.magic + Self.version + body
    }

    /// Reads a file's bytes, checking the structure and the bounds; no key is needed.
    /// - Throws: `GVariantDecoder.Malformed` naming what is wrong.
    static func decode(_ bytes: [UInt8]) throws -> LibsecretKeyringFile {
        typealias Malformed = GVariantDecoder.Malformed
        guard bytes.count <= maximumBytes else {
            throw Malformed(reason: "it is larger than \(maximumBytes) bytes")
        }
        guard bytes.count >= magic.count, bytes.starts(with: magic) else {
            throw Malformed(reason: "it does not start with libsecret's GnomeKeyring header")
        }
        guard bytes.count >= magic.count + 2 else { throw Malformed(reason: "it ends before its version") }
        let major = bytes[magic.count]
        let minor = bytes[magic.count + 1]
        guard [major, minor] == version else {
            throw Malformed(
                reason: major == 0
                    ? "it is a keyring of gnome-keyring's own format (version 0), not libsecret's file"
                    : "its version \(major).\(minor) is not 1.0, the only one known")
        }
        return try bytes.withUnsafeBytes { buffer in
            // The GVariant body starts at offset 18 of the file but at its own offset 0 for alignment.
            let body = UnsafeRawBufferPointer(rebasing: buffer[(magic.count + 2)...])
            let decoder = GVariantDecoder(body)
            let fields = try decoder.members(of: bodyType, in: 0..<body.count)
            let saltLength = try decoder.uint32(fields[0])
            let salt = decoder.byteArray(fields[1])
            guard saltLength == salt.count else {
                throw Malformed(reason: "its salt size \(saltLength) is not the salt's length \(salt.count)")
            }
            guard saltLengthRange.contains(salt.count) else {
                throw Malformed(reason: "its salt of \(salt.count) bytes is outside \(saltLengthRange)")
            }
            let iterations = try decoder.uint32(fields[2])
            guard iterationRange.contains(iterations) else {
                throw Malformed(
                    reason:
                        "its PBKDF2 iteration count \(iterations) is outside \(iterationRange.lowerBound)…\(iterationRange.upperBound)"
                )
            }
            var items: [Item] = []
            var index = 0
            try decoder.forEachElement(of: itemType, in: fields[5]) { range in
                do {
                    items.append(try decodeItem(decoder, range))
                } catch let error as Malformed {
                    throw Malformed(reason: "item \(index): \(error.reason)")
                }
                index += 1
            }
            return LibsecretKeyringFile(
                salt: salt, iterations: iterations, modified: try decoder.uint64(fields[3]),
                usageCount: try decoder.uint32(fields[4]), items: items)
        }
    }

    private static func decodeItem(_ decoder: GVariantDecoder, _ range: Range<Int>) throws -> Item {
        let parts = try decoder.members(of: itemType, in: range)
        var attributes: [(name: String, mac: [UInt8])] = []
        try decoder.forEachElement(of: .dictEntry(.string, .array(.byte)), in: parts[0]) { entry in
            let pair = try decoder.members(of: .dictEntry(.string, .array(.byte)), in: entry)
            let name = try decoder.string(pair[0])
            let mac = decoder.byteArray(pair[1])
            guard mac.count == LibsecretItemSealing.macLength else {
                throw GVariantDecoder.Malformed(reason: "an attribute hash is \(mac.count) bytes, not 32")
            }
            attributes.append((name, mac))
        }
        // Checked before the blob is copied, so a file of tiny items stops at its first.
        if let problem = LibsecretItemSealing.blobProblem(count: parts[1].count) {
            throw GVariantDecoder.Malformed(reason: problem)
        }
        return Item(hashedAttributes: attributes, blob: decoder.byteArray(parts[1]))
    }
}
