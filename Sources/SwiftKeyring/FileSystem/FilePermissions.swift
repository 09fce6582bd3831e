#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// The ownership and mode rules of the private files this package keeps (the
/// keyring file, the session state file), their folders, and the files a secret is read from.
package enum FilePermissions {
    /// A private file's mode.
    package static let fileMode: mode_t = 0o600
    /// A private folder's mode.
    package static let folderMode: mode_t = 0o700

    /// Why a private file cannot be trusted, or `nil` when it can: it must be a
    /// regular file of this user that nobody else can read or write.
    package static func fileProblem(_ info: stat) -> String? {
        if info.st_mode & S_IFMT == S_IFLNK {
            return "it is a symbolic link; give the real file's path"
        }
        if info.st_mode & S_IFMT != S_IFREG {
            return "it is not a regular file"
        }
        return ownerProblem(info) ?? modeProblem(info, allowed: fileMode, fix: "chmod 600")
    }

    /// Why a private folder cannot be trusted, or `nil`: it must be a folder of
    /// this user that nobody else can enter, since the lock and temporary files live there too.
    package static func folderProblem(_ info: stat) -> String? {
        if info.st_mode & S_IFMT != S_IFDIR {
            return "it is not a folder"
        }
        return ownerProblem(info) ?? modeProblem(info, allowed: folderMode, fix: "chmod 700")
    }

    /// Why a key or passphrase file cannot be trusted, or `nil`: it must belong to
    /// this user or to root, and no other user or group may read or write it (mode 0600 or 0400).
    ///
    /// Root counts as an owner because root can read everything anyway, and because
    /// systemd hands a service its credentials as root-owned files it may read through an ACL.
    /// With an ACL the group mode bits are the ACL's mask, not the group's access, so such a
    /// file is judged by its ACL's entries instead: only this user's may grant anything.
    /// - Parameter descriptor: the open file, for its ACL.
    package static func secretSourceProblem(_ info: stat, descriptor: Int32) -> String? {
        if info.st_mode & S_IFMT != S_IFREG {
            return "it is not a regular file"
        }
        let me = geteuid()
        if info.st_uid != me && info.st_uid != 0 {
            return "it belongs to user \(info.st_uid), not to this user (\(me)) or root"
        }
        let fix = "a key or passphrase file must be readable by its owner only; chmod 600 it"
        if let access = accessWords(info.st_mode & 0o007) {
            return "its mode \(octal(info.st_mode)) lets other users \(access) it; \(fix)"
        }
        guard let access = accessWords((info.st_mode & 0o070) >> 3) else { return nil }
        if let acl = FileACL(descriptor: descriptor) {
            return acl.problem(me: me)
        }
        return "its mode \(octal(info.st_mode)) lets its group \(access) it; \(fix)"
    }

    /// "read", "write" or "read and write" for the `rw` bits of one class, `nil` for neither.
    static func accessWords(_ bits: mode_t) -> String? {
        switch (bits & 0o4 != 0, bits & 0o2 != 0) {
        case (true, true): return "read and write"
        case (true, false): return "read"
        case (false, true): return "write"
        case (false, false): return nil
        }
    }

    /// Throws `.insecurePermissions` when `problem` found one.
    package static func require(_ path: String, _ problem: String?) throws {
        if let problem { throw KeyringError.insecurePermissions(path: path, reason: problem) }
    }

    /// Makes sure a private folder exists and is private, creating it (and any
    /// missing parent) with mode 0700 when `create` allows.
    /// - Throws: `.insecurePermissions`, `.serviceUnavailable(reason: .noFolder)` when it is missing and may not be made, or `.backend`.
    package static func prepareFolder(_ path: String, create: Bool) throws {
        if try POSIX.statIfPresent(path) == nil {
            guard create else {
                throw KeyringError.serviceUnavailable(reason: .noFolder(path: path))
            }
            try makeFolders(path)
        }
        guard let info = try POSIX.statIfPresent(path) else {
            throw POSIX.failure("stat \(path)", ENOENT)
        }
        try require(path, folderProblem(info))
    }

    /// `mkdir -p` with mode 0700 for every folder it makes: made private, never
    /// opened up and closed again, so there is no moment when others could enter.
    private static func makeFolders(_ path: String) throws {
        let parent = PathName.parent(of: path)
        if !parent.isEmpty, parent != path, try POSIX.statIfPresent(parent) == nil {
            try makeFolders(parent)
        }
        if mkdir(path, folderMode) != 0, errno != EEXIST {
            throw POSIX.failure("mkdir \(path)", errno)
        }
    }

    private static func ownerProblem(_ info: stat) -> String? {
        let me = geteuid()
        return info.st_uid == me ? nil : "it belongs to user \(info.st_uid), not to this user (\(me))"
    }

    private static func modeProblem(_ info: stat, allowed: mode_t, fix: String) -> String? {
        guard info.st_mode & 0o077 != 0 else { return nil }
        return "its mode \(octal(info.st_mode)) lets group or other users in (it must be \(octal(allowed))); \(fix) it"
    }

    /// `0644`: the permission bits as `ls` and `chmod` write them.
    package static func octal(_ mode: mode_t) -> String {
        "0" + String(mode & 0o777, radix: 8)
    }
}
