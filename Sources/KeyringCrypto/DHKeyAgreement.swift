internal import CGcrypt
import Glibc  // memmove, memset

/// The key exchange of the Secret Service's `dh-ietf1024-sha256-aes128-cbc-pkcs7`
/// transfer: Diffie-Hellman in the second Oakley group (RFC 2409, section 6.2,
/// generator 2), then HKDF-SHA256 with no salt and no info to a 16-byte AES key.
///
/// libsecret picks a private exponent as long as the 1024-bit prime: two 1023-bit
/// modular exponentiations, about 23 million instructions, most of the time a short
/// process such as `swift-keyring get` spends on the CPU. Here the exponent has 256
/// bits. Against a discrete logarithm with an exponent known to be short, the best
/// attacks (Pollard's kangaroo) take about 2^128 steps, more than the 1024-bit group
/// itself withstands (about 2^80), so the exchange is as strong as libsecret's and
/// about four times cheaper. The daemon's side is unchanged: each side picks its own
/// exponent. The exponent and the shared value live in libgcrypt's secure memory.
package final class DHKeyAgreement: @unchecked Sendable {
    /// Bits of the private exponent.
    static let exponentBits = 256
    /// Bytes of the AES key agreed.
    package static let keyLength = 16

    /// The group's prime, big-endian.
    static let prime: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xC9, 0x0F, 0xDA, 0xA2, 0x21, 0x68, 0xC2, 0x34,
        0xC4, 0xC6, 0x62, 0x8B, 0x80, 0xDC, 0x1C, 0xD1, 0x29, 0x02, 0x4E, 0x08, 0x8A, 0x67, 0xCC, 0x74,
        0x02, 0x0B, 0xBE, 0xA6, 0x3B, 0x13, 0x9B, 0x22, 0x51, 0x4A, 0x08, 0x79, 0x8E, 0x34, 0x04, 0xDD,
        0xEF, 0x95, 0x19, 0xB3, 0xCD, 0x3A, 0x43, 0x1B, 0x30, 0x2B, 0x0A, 0x6D, 0xF2, 0x5F, 0x14, 0x37,
        0x4F, 0xE1, 0x35, 0x6D, 0x6D, 0x51, 0xC2, 0x45, 0xE4, 0x85, 0xB5, 0x76, 0x62, 0x5E, 0x7E, 0xC6,
        0xF4, 0x4C, 0x42, 0xE9, 0xA6, 0x37, 0xED, 0x6B, 0x0B, 0xFF, 0x5C, 0xB6, 0xF4, 0x06, 0xB7, 0xED,
        0xEE, 0x38, 0x6B, 0xFB, 0x5A, 0x89, 0x9F, 0xA5, 0xAE, 0x9F, 0x24, 0x11, 0x7C, 0x4B, 0x1F, 0xE6,
        0x49, 0x28, 0x66, 0x51, 0xEC, 0xE6, 0x53, 0x81, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    ]

    private let modulus: gcry_mpi_t
    /// Written once, here; only read afterwards, which is why sharing is safe.
    private let exponent: gcry_mpi_t
    /// Our public value, `2^exponent mod prime`, big-endian: what OpenSession sends.
    package let publicValue: [UInt8]

    /// A fresh private exponent and its public value.
    /// - Throws: ``CryptoError/library(code:message:)`` when libgcrypt is missing or fails.
    ///
    /// The exponent is drawn again (about one time in 170) until the public value is one
    /// every daemon reads as sent (see `isReadAlike`).
    package init() throws {
        try Gcrypt.ensureReady()
        modulus = try Self.number(Self.prime)
        let base = gcry_mpi_set_ui(nil, 2)!
        defer { gcry_mpi_release(base) }
        let value = gcry_mpi_new(1024)!
        defer { gcry_mpi_release(value) }
        while true {
            let candidate: gcry_mpi_t
            do {
                candidate = try Self.freshExponent()
            } catch {
                gcry_mpi_release(modulus)
                throw error
            }
            gcry_mpi_powm(value, base, candidate, modulus)
            let bytes = Self.bytes(of: value, length: Self.prime.count)
            if Self.isReadAlike(bytes) {
                exponent = candidate
                publicValue = bytes
                return
            }
            gcry_mpi_release(candidate)
        }
    }

    /// Whether every daemon reads `publicValue` as the number we mean. The specification
    /// sends it as bytes and says no more; KWallet (kwalletd5 5.103, through QCA) refuses
    /// fewer than 128 ("Client public key size is invalid"), and reads the bytes as a
    /// signed number whose shortest encoding it then hands to OpenSSL: 128 bytes starting
    /// `FF 8x`…`FF Fx` lose their first byte on the way, and the daemon agrees a key with
    /// another number, so each secret sent or read under it is garbage or refused
    /// ("Can't find session"). gnome-keyring, KeePassXC and libsecret take any such value.
    static func isReadAlike(_ publicValue: [UInt8]) -> Bool {
        publicValue.count == prime.count && publicValue[0] != 0 && !(publicValue[0] == 0xFF && publicValue[1] >= 0x80)
    }

    deinit {
        gcry_mpi_release(exponent)
        gcry_mpi_release(modulus)
    }

    /// The AES key agreed with the daemon's public value; `nil` when the daemons disagree
    /// on the key for this pair (see below), and another pair must be agreed.
    ///
    /// The shared value goes into HKDF as bytes, and the specification does not say how
    /// many: gnome-keyring, libsecret and KeePassXC pad it to the prime's 128, KWallet
    /// (OpenSSL's `DH_compute_key` through QCA) drops its leading zero bytes. The two
    /// agree unless the first byte is zero, one pair in 256: then which the daemon did
    /// cannot be known, and the caller opens another transfer rather than guess.
    /// - Throws: ``CryptoError/damaged(reason:)`` when `peer` is not in the group's range 2…p-2.
    package func key(peer: UnsafeRawBufferPointer) throws -> SecureBytes? {
        let theirs = try Self.number(Array(peer))
        defer { gcry_mpi_release(theirs) }
        let upper = gcry_mpi_new(1024)!
        gcry_mpi_sub_ui(upper, modulus, 1)
        let inRange = peer.count > 0 && gcry_mpi_cmp_ui(theirs, 1) > 0 && gcry_mpi_cmp(theirs, upper) < 0
        gcry_mpi_release(upper)
        guard inRange else {
            throw CryptoError.damaged(reason: "the daemon's public value is not in the group")
        }
        let shared = gcry_mpi_snew(1024)!
        defer { gcry_mpi_release(shared) }
        gcry_mpi_powm(shared, theirs, exponent, modulus)
        // The shared value as big-endian bytes, zero-padded to the prime's 128.
        var padded = false
        let sharedBytes = try SecureBytes(count: Self.prime.count) { buffer in
            var written = 0
            try Gcrypt.check(
                gcry_mpi_print(GCRYMPI_FMT_USG, buffer.baseAddress, buffer.count, &written, shared), "writing the shared value")
            if written < buffer.count {
                padded = true
                let start = buffer.baseAddress!
                memmove(start + (buffer.count - written), start, written)
                memset(start, 0, buffer.count - written)
            }
        }
        guard !padded else { return nil }
        let prk = try KeyDerivation.extract(master: sharedBytes, salt: [UInt8](repeating: 0, count: 32))
        return try KeyDerivation.expand(prk, info: "", length: Self.keyLength)
    }

    /// A fresh exponent of 256 bits, greater than 1, in secure memory.
    ///
    /// Its bytes come from the kernel's random generator (getrandom), the source
    /// libgcrypt seeds its own from: the first strong random number a process asks
    /// of libgcrypt sets up its pool first, which took 2.6 ms of a `swift-keyring
    /// get` (ltrace), longer than the rest of the key exchange. A number scanned from
    /// secure memory is a secure number. Should getrandom fail (a kernel without it),
    /// libgcrypt's own strong generator is used.
    private static func freshExponent() throws -> gcry_mpi_t {
        let length = exponentBits / 8
        while true {
            var exponent: gcry_mpi_t?
            var fromKernel = false
            let random = try SecureBytes(count: length) { buffer in
                fromKernel = getrandom(buffer.baseAddress, length, 0) == length
            }
            if fromKernel {
                try random.withBytes { bytes in
                    try Gcrypt.check(
                        gcry_mpi_scan(&exponent, GCRYMPI_FMT_USG, bytes.baseAddress, bytes.count, nil), "reading an exponent")
                }
            } else {
                exponent = gcry_mpi_snew(UInt32(exponentBits))
                gcry_mpi_randomize(exponent, UInt32(exponentBits), GCRY_STRONG_RANDOM)
            }
            if let exponent, gcry_mpi_cmp_ui(exponent, 1) > 0 { return exponent }
            gcry_mpi_release(exponent)
        }
    }

    /// A number from big-endian bytes.
    private static func number(_ bytes: [UInt8]) throws -> gcry_mpi_t {
        var number: gcry_mpi_t?
        try Gcrypt.check(gcry_mpi_scan(&number, GCRYMPI_FMT_USG, bytes, bytes.count, nil), "reading a number")
        guard let number else { throw CryptoError.library(code: 0, message: "reading a number gave none") }
        return number
    }

    /// A public number as big-endian bytes, as libgcrypt writes it (no leading zeros).
    private static func bytes(of number: gcry_mpi_t, length: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: length)
        var written = 0
        guard gcry_mpi_print(GCRYMPI_FMT_USG, &buffer, buffer.count, &written, number) == 0 else { return [] }
        return Array(buffer.prefix(written))
    }
}
