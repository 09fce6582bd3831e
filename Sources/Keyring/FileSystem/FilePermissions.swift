import Foundation

/// The ownership and mode rules of the keyring file, its folder, and the files a secret is read from.
enum FilePermissions {
    /// The keyring file's mode.
    static let fileMode: mode_t = 0o600
    /// The keyring folder's mode.
    static let folderMode: mode_t = 0o700

    /// Why the keyring file cannot be trusted, or `nil` when it can: it must be a
    /// regular file of this user that nobody else can read or write.
    static func fileProblem(_ info: stat) -> String? {
        if info.st_mode & S_IFMT == S_IFLNK {
            return "it is a symbolic link; give the real file's path"
        }
        if info.st_mode & S_IFMT != S_IFREG {
            return "it is not a regular file"
        }
        return ownerProblem(info) ?? modeProblem(info, allowed: fileMode, fix: "chmod 600")
    }

    /// Why the keyring folder cannot be trusted, or `nil`: it must be a folder of
    /// this user that nobody else can enter, since the lock and temporary files live there too.
    static func folderProblem(_ info: stat) -> String? {
        if info.st_mode & S_IFMT != S_IFDIR {
            return "it is not a folder"
        }
        return ownerProblem(info) ?? modeProblem(info, allowed: folderMode, fix: "chmod 700")
    }

    /// Why a key or passphrase file cannot be trusted, or `nil`: other users must
    /// not read or write it (its group may read it, as services share keys that way).
    static func secretSourceProblem(_ info: stat) -> String? {
        if info.st_mode & S_IFMT != S_IFREG {
            return "it is not a regular file"
        }
        if info.st_mode & 0o006 != 0 {
            return "its mode \(octal(info.st_mode)) lets other users read or write it; chmod o-rw it"
        }
        return nil
    }

    /// Throws `.insecurePermissions` when `problem` found one.
    static func require(_ path: String, _ problem: String?) throws {
        if let problem { throw KeyringError.insecurePermissions(path: path, reason: problem) }
    }

    /// Makes sure the keyring's folder exists and is private, creating it (and any
    /// missing parent) with mode 0700 when `create` allows.
    /// - Throws: `.insecurePermissions`, `.serviceUnavailable` when it is missing and may not be made, or `.backend`.
    static func prepareFolder(_ path: String, create: Bool) throws {
        if try POSIX.statIfPresent(path) == nil {
            guard create else {
                throw KeyringError.serviceUnavailable(reason: "the keyring folder \(path) does not exist")
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
        let parent = (path as NSString).deletingLastPathComponent
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
    static func octal(_ mode: mode_t) -> String {
        "0" + String(mode & 0o777, radix: 8)
    }
}
