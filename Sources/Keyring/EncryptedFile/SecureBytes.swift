internal import CGcrypt

/// Key material in libgcrypt's secure memory: kept out of swap where the host
/// allows locking memory, and wiped when the last reference goes away.
///
/// The bytes are written only by the code that creates an instance, before it
/// is shared; afterwards they are only read, which is why sharing is safe.
package final class SecureBytes: @unchecked Sendable {
    private let buffer: UnsafeMutableRawBufferPointer

    /// Allocates `count` zeroed bytes of secure memory and lets `fill` write them.
    /// - Throws: `KeyringError.backend` when secure memory is exhausted, or what `fill` throws.
    init(count: Int, fill: (UnsafeMutableRawBufferPointer) throws -> Void) throws {
        try Gcrypt.ensureReady()
        guard let start = gcry_malloc_secure(max(count, 1)) else {
            throw KeyringError.backend(domain: "libgcrypt", code: 0, message: "secure memory is exhausted")
        }
        buffer = UnsafeMutableRawBufferPointer(start: start, count: count)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        do {
            try fill(buffer)
        } catch {
            Self.release(buffer)
            throw error
        }
    }

    /// Copies `bytes` into secure memory.
    convenience init(copying bytes: some Collection<UInt8>) throws {
        try self.init(count: bytes.count) { destination in
            destination.copyBytes(from: bytes)
        }
    }

    deinit {
        Self.release(buffer)
    }

    /// How many bytes are held.
    var count: Int { buffer.count }

    /// Lends the bytes for reading.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(buffer))
    }

    /// Whether both hold the same bytes, compared in constant time.
    func constantTimeEquals(_ other: SecureBytes) -> Bool {
        withBytes { mine in other.withBytes { theirs in ConstantTime.equal(mine, theirs) } }
    }

    private static func release(_ buffer: UnsafeMutableRawBufferPointer) {
        // gcry_free wipes blocks of the secure pool, but not blocks it had to
        // take from ordinary memory, so wipe here too.
        if let start = buffer.baseAddress {
            skr_wipe(start, buffer.count)
        }
        gcry_free(buffer.baseAddress)
    }
}
