import KeyringCrypto

/// How libsecret's keyring file seals one item under the file's key: attribute values
/// hashed with HMAC-SHA256, and the item — `(a{ss}sttay)`: attributes, label, created,
/// modified, secret — PKCS#7-padded, AES-CBC-encrypted under a fresh IV, then
/// ciphertext ‖ IV ‖ HMAC-SHA256(ciphertext ‖ IV).
///
/// The key is 16 bytes, so the cipher is AES-128 (libsecret 0.20's code names AES-256,
/// but libgcrypt keys it by the key's length).
struct LibsecretItemSealing: ~Copyable {
    /// The key's length: PBKDF2's output, which libsecret sets to the cipher's block size.
    static let keyLength = 16
    static let macLength = HMACSHA256.length
    static let ivLength = AESCBC.blockLength
    /// `(a{ss}sttay)`
    static let plaintextType = GVariantType.tuple([
        .array(.dictEntry(.string, .string)), .string, .uint64, .uint64, .array(.byte),
    ])

    private let key: SecureBytes

    /// What an item holds besides its secret.
    struct Content: Sendable, Equatable {
        var attributes: [String: String]
        var label: String
        /// Seconds since 1970.
        var created: UInt64
        /// Seconds since 1970.
        var modified: UInt64
    }

    /// Why an item could not be opened.
    enum Failure: Error {
        /// The blob's MAC does not verify: another key, or changed bytes.
        case unauthenticated
        /// It verifies but does not decode; `reason` names what is wrong.
        case malformed(String)
    }

    init(key: SecureBytes) {
        self.key = key
    }

    /// The file's key for `password`: PBKDF2-HMAC-SHA256, 16 bytes.
    static func key(password: SecureBytes, salt: [UInt8], iterations: UInt32) throws -> SecureBytes {
        try PBKDF2.sha256(password: password, salt: salt, iterations: Int(iterations), length: keyLength)
    }

    /// HMAC-SHA256(key, value): how the file shows an attribute's value.
    func hash(_ value: String) throws -> [UInt8] {
        let mac = try HMACSHA256(key: key)
        try mac.update(Array(value.utf8))
        return try mac.finish()
    }

    /// Every attribute, sorted by name as libsecret sorts them, with its value hashed.
    func hashedAttributes(_ attributes: [String: String]) throws -> [(name: String, mac: [UInt8])] {
        try attributes.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { ($0.key, try hash($0.value)) }
    }

    /// Seals `content` and `secret` into a blob.
    func seal(_ content: Content, secret: [UInt8]) throws -> [UInt8] {
        let entries = content.attributes.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map {
            GVariantEncoder.tuple([(.string, GVariantEncoder.string($0.key)), (.string, GVariantEncoder.string($0.value))])
        }
        // Everything before the secret, which is the last member and so needs no offset of its own.
        var prefix = GVariantEncoder.array(of: .dictEntry(.string, .string), entries)
        let attributesEnd = prefix.count
        prefix += GVariantEncoder.string(content.label)
        let labelEnd = prefix.count
        GVariantEncoder.pad(&prefix, to: 8)
        prefix += GVariantEncoder.uint64(content.created) + GVariantEncoder.uint64(content.modified)
        var offsets: [UInt8] = []
        let body = prefix.count + secret.count
        let width = GVariantLayout.offsetWidth(bodySize: body, count: 2)
        for offset in [labelEnd, attributesEnd] {
            withUnsafeBytes(of: UInt64(offset).littleEndian) { offsets += $0.prefix(width) }
        }
        // The plaintext is put together in secure memory, where the cipher pads it.
        let plaintext = try SecureBytes(count: body + offsets.count, orOrdinaryMemory: true) { buffer in
            buffer.copyBytes(from: prefix)
            UnsafeMutableRawBufferPointer(rebasing: buffer[prefix.count...]).copyBytes(from: secret)
            UnsafeMutableRawBufferPointer(rebasing: buffer[body...]).copyBytes(from: offsets)
        }
        let cipher = try AESCBC(key: key)
        let (iv, ciphertext) = try plaintext.withBytes { try cipher.seal($0) }
        let mac = try HMACSHA256(key: key)
        try mac.update(ciphertext)
        try mac.update(iv)
        return ciphertext + iv + (try mac.finish())
    }

    /// Why a sealed item of `count` bytes cannot be one, or `nil`: checked while the file is
    /// parsed too, so a file of millions of tiny items is refused at its first, not after all.
    static func blobProblem(count: Int) -> String? {
        let overhead = ivLength + macLength
        guard count >= overhead + AESCBC.blockLength, (count - overhead) % AESCBC.blockLength == 0 else {
            return "its sealed item is \(count) bytes, which AES-CBC with an IV and a MAC cannot make"
        }
        return nil
    }

    /// Opens a blob: checks its MAC, decrypts it, and reads its content; the secret too when `withSecret`.
    func open(_ blob: [UInt8], withSecret: Bool) throws -> (Content, [UInt8]?) {
        if let problem = Self.blobProblem(count: blob.count) { throw Failure.malformed(problem) }
        let macStart = blob.count - Self.macLength
        let mac = try HMACSHA256(key: key)
        try mac.update(blob[..<macStart])
        guard ConstantTime.equal(try mac.finish(), blob[macStart...]) else { throw Failure.unauthenticated }
        let ivStart = macStart - Self.ivLength
        let plaintext: SecureBytes
        do {
            let cipher = try AESCBC(key: key)
            plaintext = try blob.withUnsafeBytes { bytes in
                try cipher.open(
                    iv: UnsafeRawBufferPointer(rebasing: bytes[ivStart..<macStart]),
                    ciphertext: UnsafeRawBufferPointer(rebasing: bytes[..<ivStart]))
            }
        } catch CryptoError.damaged(let reason) {
            throw Failure.malformed(reason)
        }
        return try plaintext.withBytes { bytes in
            do {
                return try Self.decode(GVariantDecoder(bytes), withSecret: withSecret)
            } catch let error as GVariantDecoder.Malformed {
                throw Failure.malformed(error.reason)
            }
        }
    }

    private static func decode(_ decoder: GVariantDecoder, withSecret: Bool) throws -> (Content, [UInt8]?) {
        let fields = try decoder.members(of: plaintextType, in: 0..<decoder.bytes.count)
        var attributes: [String: String] = [:]
        try decoder.forEachElement(of: .dictEntry(.string, .string), in: fields[0]) { entry in
            let pair = try decoder.members(of: .dictEntry(.string, .string), in: entry)
            let name = try decoder.string(pair[0])
            guard attributes.updateValue(try decoder.string(pair[1]), forKey: name) == nil else {
                throw GVariantDecoder.Malformed(reason: "an attribute appears twice")
            }
        }
        let content = Content(
            attributes: attributes, label: try decoder.string(fields[1]),
            created: try decoder.uint64(fields[2]), modified: try decoder.uint64(fields[3]))
        return (content, withSecret ? decoder.byteArray(fields[4]) : nil)
    }
}
