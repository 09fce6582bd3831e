internal import CGcrypt

/// Key material in libgcrypt's secure memory: kept out of swap where the host
/// allows locking memory, and wiped when the last reference goes away.
///
/// The bytes are written only by the code that creates an instance, before it
/// is shared; afterwards they are only read, which is why sharing is safe.
package final class SecureBytes: @unchecked Sendable {
    /// All the memory taken, wiped and freed as a whole.
    private let allocation: UnsafeMutableRawBufferPointer
    /// The bytes held: the start of `allocation`.
    private let buffer: UnsafeMutableRawBufferPointer

    /// Allocates `count` zeroed bytes of secure memory and lets `fill` write them.
    /// - Throws: ``CryptoError/library(code:message:)`` when secure memory is exhausted, or what `fill` throws.
    package convenience init(
        count: Int, orOrdinaryMemory: Bool = false, fill: (UnsafeMutableRawBufferPointer) throws -> Void
    ) throws {
        try self.init(capacity: count, orOrdinaryMemory: orOrdinaryMemory) { buffer in
            try fill(buffer)
            return buffer.count
        }
    }

    /// Allocates `capacity` zeroed bytes of secure memory and lets `fill` write the
    /// first of them, for a secret whose length is known only once it is read.
    /// - Parameters:
    ///   - fill: writes the bytes and returns how many it wrote.
    ///   - orOrdinaryMemory: when the secure pool has no room, take ordinary memory
    ///     (still wiped) rather than fail: for a secret that may be far larger than
    ///     the pool, such as one crossing the bus (the store takes 1 MiB).
    /// - Throws: ``CryptoError/library(code:message:)`` when secure memory is exhausted, or what `fill` throws.
    package init(
        capacity: Int, orOrdinaryMemory: Bool = false, fill: (UnsafeMutableRawBufferPointer) throws -> Int
    ) throws {
        try Gcrypt.ensureReady()
        guard
            let start = gcry_malloc_secure(max(capacity, 1)) ?? (orOrdinaryMemory ? gcry_malloc(max(capacity, 1)) : nil)
        else {
            throw CryptoError.library(code: 0, message: "secure memory is exhausted")
        }
        allocation = UnsafeMutableRawBufferPointer(start: start, count: capacity)
        allocation.initializeMemory(as: UInt8.self, repeating: 0)
        do {
            let count = try fill(allocation)
            buffer = UnsafeMutableRawBufferPointer(rebasing: allocation[..<min(max(count, 0), capacity)])
        } catch {
            Self.release(allocation)
            throw error
        }
    }

    /// Copies `bytes` into secure memory.
    package convenience init(copying bytes: some Collection<UInt8>) throws {
        try self.init(count: bytes.count) { destination in
            destination.copyBytes(from: bytes)
        }
    }

    deinit {
        Self.release(allocation)
    }

    /// How many bytes are held.
    package var count: Int { buffer.count }

    /// Lends the bytes for reading.
    package func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(buffer))
    }

    private static func release(_ buffer: UnsafeMutableRawBufferPointer) {
        // gcry_free wipes blocks of the secure pool, but not blocks it had to
        // take from ordinary memory, so wipe here too.
        if let start = buffer.baseAddress {
            swift_keyring_wipe(start, buffer.count)
        }
        gcry_free(buffer.baseAddress)
    }
}
