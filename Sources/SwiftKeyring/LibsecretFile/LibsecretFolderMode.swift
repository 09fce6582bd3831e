#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// The mode of the `keyrings` folder libsecret made: libsecret creates it with the
/// process's umask, so mode 0755 as a rule (seen here: `SNAP_NAME=x secret-tool store`
/// left `keyrings/` at 0755 and the file at 0600). The store keeps its lock and
/// temporary files there and wants it at 0700: a folder of this user that others may
/// only read and enter is closed to them; one they may write stays refused.
enum LibsecretFolderMode {
    /// Takes the read and search bits of group and others off `path` when it is a folder of
    /// this user that they cannot write; anything else is left to `FilePermissions` to judge.
    static func closeIfOnlyReadable(_ path: String) throws {
        guard let info = try POSIX.lstatIfPresent(path), info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid()
        else { return }
        let others = info.st_mode & 0o077
        guard others != 0, others & 0o022 == 0 else { return }
        try POSIX.call("chmod 0700 \(path)") { chmod(path, FilePermissions.folderMode) }
    }
}
