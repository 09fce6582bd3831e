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
    /// Checked and changed on the open folder (`PrivateFolder`), so a link swapped in after
    /// the check never gets its target set to 0700.
    static func closeIfOnlyReadable(_ path: String) throws {
        _ = try PrivateFolder.withOpenFolder(path) { descriptor -> Void? in
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_uid == geteuid() else { return nil }
            let others = info.st_mode & 0o077
            guard others != 0, others & 0o022 == 0 else { return nil }
            try POSIX.call("chmod 0700 \(path)") { fchmod(descriptor, FilePermissions.folderMode) }
            return ()
        }
    }
}
