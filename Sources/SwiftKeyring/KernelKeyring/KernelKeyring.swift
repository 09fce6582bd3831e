internal import CKernelKeys
import KeyringCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// The login session's keyring in the kernel (`keyrings(7)`): keys of type `user` that
/// only the session's own processes (the keyring's possessors) can find and read.
///
/// Every call is one system call (see `CKernelKeys`); a failure becomes a `KeyringError`
/// here and nowhere else.
enum KernelKeyring {
    /// Possessor may view, read, write, search, link and set attributes; the owning user
    /// without possession, its group and others get nothing (`KEY_POS_ALL`, no `KEY_USR_*`).
    static let possessorOnly: UInt32 = 0x3f00_0000

    /// The session keyring, found without making one: a process that has none (a shell not
    /// started by a PAM login, a container's `exec`) gets the user's session keyring, which
    /// the kernel installs as its session keyring, exactly as `@s` reads. Asking `add_key` for
    /// `@s` itself would make a new keyring for this process alone, gone when it exits.
    static func sessionKeyring() throws -> Int32 {
        let id = try call("keyctl(KEYCTL_GET_KEYRING_ID)") {
            swift_keyring_keyctl(
                Int32(SWIFT_KEYRING_KEYCTL_GET_KEYRING_ID),
                UInt(bitPattern: SWIFT_KEYRING_KEY_SPEC_SESSION), 0, 0, 0)
        }
        return Int32(truncatingIfNeeded: id)
    }

    /// The key of `type` named `name` that this process possesses in `keyring`; `nil` when there is none.
    static func find(_ name: String, type: String = "user", in keyring: Int32) throws -> Int32? {
        do {
            let id = try call("keyctl(KEYCTL_SEARCH)") {
                name.withCString { description in
                    type.withCString { type in
                        swift_keyring_keyctl(
                            Int32(SWIFT_KEYRING_KEYCTL_SEARCH), UInt(bitPattern: Int(keyring)),
                            UInt(bitPattern: type), UInt(bitPattern: description), 0)
                    }
                }
            }
            return Int32(truncatingIfNeeded: id)
        } catch let failure as KernelKeyFailure where failure.isAbsent {
            return nil
        }
    }

    /// Adds (or replaces) the key named `name` in `keyring` with `payload`, readable by
    /// possessors only, gone after `timeout` seconds; returns its id.
    static func add(_ name: String, payload: SecureBytes, to keyring: Int32, timeout: UInt32) throws -> Int32 {
        let id = try payload.withBytes { bytes in
            try call("add_key") {
                name.withCString { description in
                    swift_keyring_add_key("user", description, bytes.baseAddress, bytes.count, keyring)
                }
            }
        }
        let key = Int32(truncatingIfNeeded: id)
        do {
            _ = try call("keyctl(KEYCTL_SETPERM)") {
                swift_keyring_keyctl(
                    Int32(SWIFT_KEYRING_KEYCTL_SETPERM), UInt(bitPattern: Int(key)), UInt(possessorOnly), 0, 0)
            }
            _ = try call("keyctl(KEYCTL_SET_TIMEOUT)") {
                swift_keyring_keyctl(
                    Int32(SWIFT_KEYRING_KEYCTL_SET_TIMEOUT), UInt(bitPattern: Int(key)), UInt(timeout), 0, 0)
            }
        } catch {
            // A key without its permissions or timeout must not stay behind.
            remove(key)
            throw error
        }
        return key
    }

    /// The payload of `key`, read into secure memory; `nil` when it is not `expectedLength` bytes long.
    static func read(_ key: Int32, expectedLength: Int) throws -> SecureBytes? {
        var length = 0
        let payload = try SecureBytes(capacity: expectedLength) { buffer in
            let total = try call("keyctl(KEYCTL_READ)") {
                swift_keyring_keyctl(
                    Int32(SWIFT_KEYRING_KEYCTL_READ), UInt(bitPattern: Int(key)),
                    UInt(bitPattern: buffer.baseAddress), UInt(buffer.count), 0)
            }
            length = total
            return min(total, buffer.count)
        }
        return length == expectedLength ? payload : nil
    }

    /// Removes `key` from every keyring at once; a key already gone is no failure.
    static func remove(_ key: Int32) {
        try? invalidate(key)
    }

    /// Removes `key` from every keyring at once: from then on no search finds it and no read
    /// reads it; a keyring takes every key in it along.
    /// - Throws: ``KernelKeyFailure``, ``KernelKeyFailure/isAbsent`` when it was gone already.
    static func invalidate(_ key: Int32) throws {
        _ = try call("keyctl(KEYCTL_INVALIDATE)") {
            swift_keyring_keyctl(Int32(SWIFT_KEYRING_KEYCTL_INVALIDATE), UInt(bitPattern: Int(key)), 0, 0, 0)
        }
    }

    /// Runs one system call, turning `-errno` into a ``KernelKeyFailure``.
    static func call(_ operation: String, _ body: () -> Int) throws -> Int {
        let result = body()
        guard result >= 0 else { throw KernelKeyFailure(operation: operation, errorNumber: Int32(-result)) }
        return result
    }
}
