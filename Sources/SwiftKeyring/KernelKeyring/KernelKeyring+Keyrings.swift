internal import CKernelKeys

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// The calls the kernel store makes beyond the unlocked key's: the user's persistent keyring,
/// keyrings of its own, keys of any length, and what a keyring holds.
extension KernelKeyring {
    /// The possessor may do everything, the owning user may view, read, write, search, link and
    /// set attributes; its group and others get nothing (`KEY_POS_ALL | KEY_USR_ALL`).
    static let possessorAndUser: UInt32 = 0x3f3f_0000

    /// The most a key of type `user` holds (the kernel's `user_preparse` refuses more).
    static let largestUserPayload = 32_767

    /// The most a key's description holds, its NUL not counted (`KEY_MAX_DESC_SIZE` is 4096 with it).
    static let longestDescription = 4_095

    /// The user's persistent keyring (`persistent-keyring(7)`): one per user, outliving every
    /// login, forgotten after `/proc/sys/kernel/keys/persistent_keyring_expiry` seconds unused
    /// (each call here starts that count again). It is linked into this process's own keyring,
    /// which makes this process its possessor until it exits.
    static func persistentKeyring() throws -> Int32 {
        let id = try call("keyctl(KEYCTL_GET_PERSISTENT)") {
            swift_keyring_keyctl(
                Int32(SWIFT_KEYRING_KEYCTL_GET_PERSISTENT), UInt(bitPattern: -1),
                UInt(bitPattern: Int(SWIFT_KEYRING_KEY_SPEC_PROCESS)), 0, 0)
        }
        return Int32(truncatingIfNeeded: id)
    }

    /// The keyring named `name` that this process possesses in `parent`; `nil` when there is none.
    static func findKeyring(_ name: String, in parent: Int32) throws -> Int32? {
        try find(name, type: "keyring", in: parent)
    }

    /// Makes a keyring named `name` with `permissions` and links it into `parent`, unless
    /// `parent` already holds one of that name; returns whichever `parent` holds afterwards.
    ///
    /// `add_key` cannot be asked for this: for a keyring it always makes a new one and puts
    /// it in the place of any of the same name, with every key in the old one. So the keyring
    /// is made in this process's own keyring and moved with `KEYCTL_MOVE_EXCL`, which the
    /// kernel refuses when `parent` holds one already: of two processes making it at once,
    /// one keyring wins and both use it.
    static func findOrMakeKeyring(_ name: String, in parent: Int32, permissions: UInt32) throws -> Int32 {
        let process = Int32(SWIFT_KEYRING_KEY_SPEC_PROCESS)
        // A keyring invalidated in `parent` keeps its place there until the kernel's
        // collector takes it (at once, on a workqueue); the move is refused until then.
        for _ in 0..<400 {
            if let found = try findKeyring(name, in: parent) { return found }
            let made = try call("add_key") {
                name.withCString { description in swift_keyring_add_key("keyring", description, nil, 0, process) }
            }
            let keyring = Int32(truncatingIfNeeded: made)
            do {
                try setPermissions(keyring, permissions)
                try moveExclusively(keyring, from: process, to: parent)
                return keyring
            } catch let failure as KernelKeyFailure where failure.errorNumber == EEXIST || failure.errorNumber == ENOENT {
                // Another process's keyring came first (EEXIST), or another thread of this one
                // put its own in this process's keyring in the place of this one (ENOENT).
                remove(keyring)
                usleep(5_000)
            } catch {
                remove(keyring)
                throw error
            }
        }
        throw KernelKeyFailure(operation: "keyctl(KEYCTL_MOVE)", errorNumber: EEXIST)
    }

    /// Moves `keyring` from `source` into `destination`, unless `destination` holds one of the
    /// same name already (then `EEXIST`).
    /// - Throws: ``KernelKeyFailure``; on a kernel before Linux 5.1, which has no `KEYCTL_MOVE`,
    ///   one that names the kernel needed.
    private static func moveExclusively(_ keyring: Int32, from source: Int32, to destination: Int32) throws {
        do {
            _ = try call("keyctl(KEYCTL_MOVE)") {
                swift_keyring_keyctl(
                    Int32(SWIFT_KEYRING_KEYCTL_MOVE), UInt(bitPattern: Int(keyring)),
                    UInt(bitPattern: Int(source)), UInt(bitPattern: Int(destination)),
                    UInt(SWIFT_KEYRING_KEYCTL_MOVE_EXCL))
            }
        } catch var failure as KernelKeyFailure where failure.errorNumber == EOPNOTSUPP {
            // No way around it on an older kernel. Linking the new keyring with KEYCTL_LINK (or
            // making it in place with add_key) puts it in the place of any keyring of the same
            // name: of two processes making a service's keyring at once, the second would
            // replace the first's, and the records the first had just written into it would
            // be gone. So the store fails, naming the kernel it needs, and writes nothing.
            failure.since = "Linux 5.1"
            throw failure
        }
    }

    /// Adds (or replaces, in one step) the `user` key named `name` in `keyring` with `payload`,
    /// with `permissions`; returns its id.
    static func addUserKey(_ name: String, payload: UnsafeRawBufferPointer, to keyring: Int32, permissions: UInt32) throws
        -> Int32
    {
        let id = try call("add_key") {
            name.withCString { description in
                swift_keyring_add_key("user", description, payload.baseAddress, payload.count, keyring)
            }
        }
        let key = Int32(truncatingIfNeeded: id)
        // A new key starts with the kernel's default permissions (the user may view it);
        // a replaced one keeps these.
        try setPermissions(key, permissions)
        return key
    }

    /// Sets `key`'s permissions.
    static func setPermissions(_ key: Int32, _ permissions: UInt32) throws {
        _ = try call("keyctl(KEYCTL_SETPERM)") {
            swift_keyring_keyctl(
                Int32(SWIFT_KEYRING_KEYCTL_SETPERM), UInt(bitPattern: Int(key)), UInt(permissions), 0, 0)
        }
    }

    /// The whole payload of `key` (for a keyring, the ids it holds), in ordinary memory the
    /// caller wipes; `nil` when the key is gone.
    static func payload(of key: Int32) throws -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: largestUserPayload)
        while true {
            let total: Int
            do {
                total = try buffer.withUnsafeMutableBytes { bytes in
                    try call("keyctl(KEYCTL_READ)") {
                        swift_keyring_keyctl(
                            Int32(SWIFT_KEYRING_KEYCTL_READ), UInt(bitPattern: Int(key)),
                            UInt(bitPattern: bytes.baseAddress), UInt(bytes.count), 0)
                    }
                }
            } catch let failure as KernelKeyFailure where failure.isAbsent {
                buffer.wipe()
                return nil
            }
            if total <= buffer.count {
                let payload = Array(buffer[..<total])
                buffer.wipe()
                return payload
            }
            // A keyring holding more than the buffer: the kernel said how much.
            buffer.wipe()
            buffer = [UInt8](repeating: 0, count: total)
        }
    }

    /// The ids of the keys `keyring` holds; empty when it is gone.
    static func contents(of keyring: Int32) throws -> [Int32] {
        guard let bytes = try payload(of: keyring) else { return [] }
        return stride(from: 0, to: bytes.count - 3, by: 4).map { offset in
            bytes[offset..<(offset + 4)].withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
        }
    }

    /// The type and description of `key`; `nil` when it is gone or not this user's to see.
    static func describe(_ key: Int32) -> (type: String, description: [UInt8])? {
        var buffer = [UInt8](repeating: 0, count: longestDescription + 128)
        let total = buffer.withUnsafeMutableBytes { bytes in
            swift_keyring_keyctl(
                Int32(SWIFT_KEYRING_KEYCTL_DESCRIBE), UInt(bitPattern: Int(key)),
                UInt(bitPattern: bytes.baseAddress), UInt(bytes.count), 0)
        }
        // `type;uid;gid;perm;description` and a NUL; the description may hold `;` itself.
        guard total > 0, total <= buffer.count else { return nil }
        let text = buffer[..<(total - 1)]
        let fields = text.split(separator: UInt8(ascii: ";"), maxSplits: 4, omittingEmptySubsequences: false)
        guard fields.count == 5 else { return nil }
        return (String(decoding: fields[0], as: UTF8.self), Array(fields[4]))
    }
}
