import KeyringCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A file store's derived key, kept in the login session's kernel keyring after `swift-keyring
/// unlock`, so the session's other processes skip the passphrase and the key derivation.
///
/// One cache entry per file: the key (never the passphrase) is named by the kind of file and
/// the file's identity (what its header holds: the salt and the derivation's cost, hashed),
/// not its path, readable only by the session's processes, and removed by the kernel at its
/// timeout. Its payload is the key and then the moment it expires (seconds since 1970,
/// big-endian), so `doctor` can say until when without asking the kernel for timings it does not give.
struct UnlockedKeyCache: Sendable {
    /// Every cached key's name begins with this; the kind of file and its identity follow.
    static let namePrefix = "swift-keyring:"
    /// The longest the kernel keeps a key for: its timeout is a 32-bit count of seconds,
    /// and nobody should leave a file open for longer than a month.
    static let longest: Duration = .seconds(30 * 86_400)

    /// The kernel key's name: ``namePrefix``, the kind of file, `:`, its identity.
    let name: String
    /// The key's length; a payload of another length is no key of this file's and is dropped.
    let keyLength: Int
    private var payloadLength: Int { keyLength + 8 }

    /// The entry of the file of `kind` (`file`, `libsecret-file`) whose header has `identity`.
    init(kind: String, identity: String, keyLength: Int) {
        name = Self.namePrefix + kind + ":" + identity
        self.keyLength = keyLength
    }

    /// The encrypted file's entry: its master key, under `swift-keyring:file:` and the header's identity.
    init(_ header: KeyedHeader) {
        self.init(kind: "file", identity: header.identity, keyLength: KeyDerivation.keyLength)
    }

    /// A key found in the cache: the key for the file, and when the cache forgets it.
    struct Entry: Sendable {
        let key: SecureBytes
        let expires: Date
    }

    /// The key kept, or `nil`: none kept, or a kernel that refuses the calls (a cache that
    /// cannot be reached is no reason to fail; the usual sources still are).
    /// A payload of the wrong size is dropped.
    func find() -> Entry? {
        guard let keyring = try? KernelKeyring.sessionKeyring(),
            let key = try? KernelKeyring.find(name, in: keyring)
        else { return nil }
        guard let payload = try? KernelKeyring.read(key, expectedLength: payloadLength) else {
            KernelKeyring.remove(key)
            return nil
        }
        return try? payload.withBytes { bytes in
            let kept = try SecureBytes(copying: bytes[..<keyLength])
            let seconds = bytes[keyLength...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return Entry(key: kept, expires: Date(timeIntervalSince1970: Double(seconds)))
        }
    }

    /// Keeps `key` in the session keyring for `duration`; returns when it expires.
    /// - Throws: `.invalidConfiguration` for a duration under a second or over ``longest``;
    ///   `.backend` (domain `kernel keyring`) when the kernel refuses, naming the fallback.
    func keep(_ key: SecureBytes, duration: Duration) throws -> Date {
        let seconds = duration.components.seconds
        guard seconds >= 1, duration <= Self.longest else {
            throw KeyringError.invalidConfiguration(
                setting: "unlock duration", reason: "must be between 1 second and 30 days, not \(duration)")
        }
        let expires = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) + Double(seconds))
        let stamp = UInt64(expires.timeIntervalSince1970)
        do {
            let payload = try KeyringError.translatingCrypto {
                try SecureBytes(count: payloadLength) { buffer in
                    key.withBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(keyLength))) }
                    for index in 0..<8 {
                        buffer[keyLength + index] = UInt8(truncatingIfNeeded: stamp >> (56 - 8 * UInt64(index)))
                    }
                }
            }
            let keyring = try KernelKeyring.sessionKeyring()
            _ = try KernelKeyring.add(name, payload: payload, to: keyring, timeout: UInt32(seconds))
            return expires
        } catch let failure as KernelKeyFailure {
            throw failure.keyringError
        }
    }

    /// Fails as ``keep(_:duration:)`` would where the kernel refuses the key calls, before
    /// anything is asked or derived.
    /// - Throws: `.backend` (domain `kernel keyring`), naming the fallback.
    static func requireReachable() throws {
        do {
            _ = try KernelKeyring.sessionKeyring()
        } catch let failure as KernelKeyFailure {
            throw failure.keyringError
        }
    }

    /// Drops the key kept; `false` when none was kept (or the kernel refuses).
    @discardableResult
    func drop() -> Bool {
        guard let keyring = try? KernelKeyring.sessionKeyring(),
            let key = try? KernelKeyring.find(name, in: keyring)
        else { return false }
        KernelKeyring.remove(key)
        return true
    }
}
