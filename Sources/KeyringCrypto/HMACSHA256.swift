internal import CGcrypt

/// HMAC-SHA256 through libgcrypt's MAC interface, its state in secure memory.
package struct HMACSHA256: ~Copyable {
    /// The length of a tag, in bytes.
    package static let length = 32

    private let handle: gcry_mac_hd_t

    /// Starts a MAC under a key held in secure memory.
    package init(key: SecureBytes) throws {
        handle = try key.withBytes { try Self.open(key: $0) }
    }

    /// Starts a MAC under a key that is not secret (HKDF's salt).
    package init(key: [UInt8]) throws {
        handle = try key.withUnsafeBytes { try Self.open(key: $0) }
    }

    private static func open(key: UnsafeRawBufferPointer) throws -> gcry_mac_hd_t {
        try Gcrypt.ensureReady()
        var opened: gcry_mac_hd_t?
        try Gcrypt.check(
            gcry_mac_open(&opened, Int32(GCRY_MAC_HMAC_SHA256.rawValue), UInt32(GCRY_MAC_FLAG_SECURE.rawValue), nil),
            "opening HMAC-SHA256"
        )
        guard let opened else {
            throw CryptoError.library(code: 0, message: "opening HMAC-SHA256 gave no handle")
        }
        do {
            try Gcrypt.check(gcry_mac_setkey(opened, key.baseAddress, key.count), "setting an HMAC key")
        } catch {
            gcry_mac_close(opened)
            throw error
        }
        return opened
    }

    deinit {
        gcry_mac_close(handle)
    }

    /// Adds bytes to the message.
    package func update(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0 else { return }
        try Gcrypt.check(gcry_mac_write(handle, bytes.baseAddress, bytes.count), "computing an HMAC")
    }

    /// Adds bytes to the message.
    package func update(_ bytes: some ContiguousCollectionOfBytes) throws {
        try bytes.withUnsafeBytes { try update($0) }
    }

    /// The tag, for values that are not secret (checks and file MACs).
    package func finish() throws -> [UInt8] {
        var tag = [UInt8](repeating: 0, count: Self.length)
        try tag.withUnsafeMutableBytes { try finish(into: $0) }
        return tag
    }

    /// Writes the tag into `destination` (secure memory, when the tag is a key).
    package func finish(into destination: UnsafeMutableRawBufferPointer) throws {
        precondition(destination.count == Self.length, "an HMAC-SHA256 tag is 32 bytes")
        var length = Self.length
        try Gcrypt.check(gcry_mac_read(handle, destination.baseAddress, &length), "reading an HMAC")
    }

    /// Starts a new message under the same key, as if just opened (`gcry_mac_reset`): the key's
    /// set-up is kept rather than done again.
    package func reset() throws {
        try Gcrypt.check(gcry_mac_ctl(handle, Int32(GCRYCTL_RESET.rawValue), nil, 0), "resetting an HMAC")
    }
}

/// Byte containers the crypto helpers accept without copying: `[UInt8]` and `ArraySlice<UInt8>`.
package protocol ContiguousCollectionOfBytes {
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result
}

extension Array: ContiguousCollectionOfBytes where Element == UInt8 {}
extension ArraySlice: ContiguousCollectionOfBytes where Element == UInt8 {}
