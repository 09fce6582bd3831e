import KeyringCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The encrypted file's derived master key, kept in the login session's kernel keyring
/// after `swift-keyring unlock`, so the session's other processes skip the passphrase and Argon2id.
///
/// The key (never the passphrase) is named by the file's identity (``KeyedHeader/identity``),
/// not its path, readable only by the session's processes, and removed by the kernel at its
/// timeout. Its payload is the key and then the moment it expires (seconds since 1970, big-endian),
/// so `doctor` can say until when without asking the kernel for timings it does not give.
enum UnlockedKeyCache {
    /// Every cached key's name begins with this; the file's identity follows.
    static let namePrefix = "swift-keyring:file:"
    private static let keyLength = KeyDerivation.keyLength
    private static let payloadLength = keyLength + 8
    /// The longest the kernel keeps a key for: its timeout is a 32-bit count of seconds,
    /// and nobody should leave a file open for longer than a month.
    static let longest: Duration = .seconds(30 * 86_400)

    /// A key found in the cache: the master key for the file, and when the cache forgets it.
    struct Entry: Sendable {
        let master: SecureBytes
        let expires: Date
    }

    /// The name of the key kept for the file with `header`.
    static func name(_ header: KeyedHeader) -> String { namePrefix + header.identity }

    /// The key kept for the file with `header`, or `nil`: none kept, or a kernel that refuses
    /// the calls (a cache that cannot be reached is no reason to fail; the usual sources still are).
    /// A payload of the wrong size is dropped.
    static func find(for header: KeyedHeader) -> Entry? {
        guard header.keySource == .argon2id,
            let keyring = try? KernelKeyring.sessionKeyring(),
            let key = try? KernelKeyring.find(name(header), in: keyring)
        else { return nil }
        guard let payload = try? KernelKeyring.read(key, expectedLength: payloadLength) else {
            KernelKeyring.remove(key)
            return nil
        }
        return try? payload.withBytes { bytes in
            let master = try SecureBytes(copying: bytes[..<keyLength])
            let seconds = bytes[keyLength...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return Entry(master: master, expires: Date(timeIntervalSince1970: Double(seconds)))
        }
    }

    /// Keeps `master` for the file with `header` in the session keyring for `duration`; returns when it expires.
    /// - Throws: `.invalidConfiguration` for a duration under a second or over ``longest``;
    ///   `.backend` (domain `kernel keyring`) when the kernel refuses, naming the fallback.
    static func keep(_ master: SecureBytes, for header: KeyedHeader, duration: Duration) throws -> Date {
        let seconds = duration.components.seconds
        guard seconds >= 1, duration <= longest else {
            throw KeyringError.invalidConfiguration(
                setting: "unlock duration", reason: "must be between 1 second and 30 days, not \(duration)")
        }
        let expires = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) + Double(seconds))
        let stamp = UInt64(expires.timeIntervalSince1970)
        do {
            let payload = try KeyringError.translatingCrypto {
                try SecureBytes(count: payloadLength) { buffer in
                    master.withBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(keyLength))) }
                    for index in 0..<8 {
                        buffer[keyLength + index] = UInt8(truncatingIfNeeded: stamp >> (56 - 8 * UInt64(index)))
                    }
                }
            }
            let keyring = try KernelKeyring.sessionKeyring()
            _ = try KernelKeyring.add(name(header), payload: payload, to: keyring, timeout: UInt32(seconds))
            return expires
        } catch let failure as KernelKeyFailure {
            throw failure.keyringError
        }
    }

    /// Fails as ``keep(_:for:duration:)`` would where the kernel refuses the key calls, before
    /// anything is asked or derived.
    /// - Throws: `.backend` (domain `kernel keyring`), naming the fallback.
    static func requireReachable() throws {
        do {
            _ = try KernelKeyring.sessionKeyring()
        } catch let failure as KernelKeyFailure {
            throw failure.keyringError
        }
    }

    /// Drops the key kept for the file with `header`; `false` when none was kept (or the kernel refuses).
    @discardableResult
    static func drop(for header: KeyedHeader) -> Bool {
        guard let keyring = try? KernelKeyring.sessionKeyring(),
            let key = try? KernelKeyring.find(name(header), in: keyring)
        else { return false }
        KernelKeyring.remove(key)
        return true
    }
}
