#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// Replaces a private file so that a reader or a crash sees either the old
/// version or the new one, whole: write a temporary file (0600 from its
/// creation), fsync it, rename it over the file, fsync the folder.
package enum AtomicFileWriter {
    /// Writes `bytes` as the new version of `paths.file`. The caller holds the lock.
    /// - Parameter beforeRename: runs once the new version is on disk, just before it replaces the
    ///   file; when it throws, the temporary file goes and the file stays as it was. For a file that
    ///   writers outside the lock also replace (libsecret's), to check it is still the version read.
    /// - Returns: the new version, still open (see `PinnedFile`).
    /// - Throws: `.insecurePermissions` when the folder was opened up meanwhile, `.backend`, or what `beforeRename` throws.
    package static func replace(
        _ paths: StorePaths, with bytes: [UInt8], beforeRename: () throws -> Void = {}
    ) throws -> PinnedFile {
        // The folder may have been opened up since the store was opened; the temporary file goes there.
        guard let folder = try POSIX.statIfPresent(paths.folder) else {
            throw KeyringError.serviceUnavailable(reason: .noFolder(path: paths.folder))
        }
        try FilePermissions.require(paths.folder, FilePermissions.folderProblem(folder))
        // A temporary file left by a writer that died: only a lock holder writes one.
        try POSIX.unlinkIfPresent(paths.temporary)
        let pinned = PinnedFile(try POSIX.open(paths.temporary, O_WRONLY | O_CREAT | O_EXCL, mode: FilePermissions.fileMode))
        do {
            // The umask can only have removed bits; this puts back exactly 0600.
            try POSIX.call("fchmod \(paths.temporary)") { fchmod(pinned.descriptor, FilePermissions.fileMode) }
            try POSIX.writeAll(pinned.descriptor, bytes, path: paths.temporary)
            try POSIX.fsync(pinned.descriptor, path: paths.temporary)
            try beforeRename()
            try POSIX.rename(paths.temporary, paths.file)
        } catch {
            try? POSIX.unlinkIfPresent(paths.temporary)
            throw error
        }
        try POSIX.fsyncFolder(paths.folder)
        return pinned
    }
}
