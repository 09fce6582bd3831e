internal import CGcrypt

/// libgcrypt's one-time set-up, and the one place where its error codes become ``CryptoError``s.
package enum Gcrypt {
    /// `gcry_kdf_open` (Argon2) arrived in 1.10.
    static let minimumVersion = "1.10.0"

    /// The first secure-memory pool: room for one store's keys, its ciphers and a key
    /// exchange several times over. It is locked (`mlock`) whole at start, which fills every
    /// page of it: 256 KiB took 177 µs of a file `get`, 32 KiB 30–78 µs (strace -T); and 32
    /// KiB fits under a 64 KiB `RLIMIT_MEMLOCK`, where 256 KiB could not be locked.
    static let firstSecurePoolBytes = 32 * 1024
    /// The pools libgcrypt adds when the first is full (many stores open in one process).
    static let addedSecurePoolBytes = 256 * 1024

    /// The library's version once it is loaded and initialised, or why it is not.
    ///
    /// libgcrypt is loaded here, on the first call that needs crypto, never at start. A
    /// static `let` runs its initialiser exactly once, and threads that race to it wait,
    /// so libgcrypt is initialised before any thread of ours uses it.
    private static let readiness: Result<String, CryptoError> = {
        if let failure = swift_keyring_gcry_load() {
            return .failure(.libraryMissing(detail: String(cString: failure)))
        }
        guard let version = swift_keyring_gcry_initialise(minimumVersion, firstSecurePoolBytes, addedSecurePoolBytes) else {
            let found = swift_keyring_gcry_running_version().map { String(cString: $0) } ?? "unknown"
            return .failure(
                .library(code: 0, message: "libgcrypt \(minimumVersion) or newer is needed; this process has \(found)"))
        }
        return .success(String(cString: version))
    }()

    /// The library's version once it is initialised, or `nil` when it is missing or older than `minimumVersion`.
    package static var initialisedVersion: String? { try? readiness.get() }

    /// Loads and initialises libgcrypt when that has not happened yet: every crypto entry point calls it
    /// (or ``openCipher(_:_:key:name:)``) before any `gcry_` function, whose stubs stop the program until then.
    /// - Throws: ``CryptoError/libraryMissing(detail:)`` when libgcrypt cannot be loaded,
    ///   ``CryptoError/library(code:message:)`` when it is too old.
    package static func ensureReady() throws {
        _ = try readiness.get()
    }

    /// Throws when `code` is an error.
    /// - Parameters:
    ///   - code: what a `gcry_*` call returned.
    ///   - operation: what was being done, for the message.
    static func check(_ code: gcry_error_t, _ operation: @autoclosure () -> String) throws {
        guard code != 0 else { return }
        throw CryptoError.library(
            code: Int(gcry_err_code(code).rawValue),
            message: "\(operation()): \(String(cString: gcry_strerror(code)))"
        )
    }

    /// A cipher handle keyed with `key`, its state in secure memory; the caller closes it.
    /// - Parameter name: names the cipher in error messages, such as "AES-256-GCM".
    static func openCipher(
        _ algorithm: gcry_cipher_algos, _ mode: gcry_cipher_modes, key: SecureBytes, name: String
    ) throws -> gcry_cipher_hd_t {
        try ensureReady()
        var opened: gcry_cipher_hd_t?
        try check(
            gcry_cipher_open(&opened, Int32(algorithm.rawValue), Int32(mode.rawValue), UInt32(GCRY_CIPHER_SECURE.rawValue)),
            "opening \(name)")
        guard let opened else {
            throw CryptoError.library(code: 0, message: "opening \(name) gave no handle")
        }
        do {
            try key.withBytes { try check(gcry_cipher_setkey(opened, $0.baseAddress, $0.count), "setting an AES key") }
        } catch {
            gcry_cipher_close(opened)
            throw error
        }
        return opened
    }

    /// Whether `code` says an authentication tag or MAC did not match.
    static func isChecksumMismatch(_ code: gcry_error_t) -> Bool {
        gcry_err_code(code) == GPG_ERR_CHECKSUM
    }
}
