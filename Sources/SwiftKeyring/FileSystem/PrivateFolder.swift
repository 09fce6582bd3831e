#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// A folder judged on the folder itself, never through a symbolic link: opened with
/// `O_DIRECTORY | O_NOFOLLOW`, then checked (and changed) by its descriptor with
/// `fstat` and `fchmod`. A check by path (`stat`, `lstat` then `chmod`) can be fooled:
/// a link another user planted in a folder anyone may write passes `stat` as the
/// folder it points to, and a link swapped in between `lstat` and `chmod` gets
/// whatever inode of this user it names set to 0700.
package enum PrivateFolder {
    /// Why `path` is not a folder of this user that nobody else may enter, or `nil` when it is.
    /// A symbolic link, a missing folder or one that cannot be opened is a problem too.
    package static func problem(at path: String) -> String? {
        withOpenFolder(path) { descriptor in
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { return "it cannot be examined (\(String(cString: strerror(errno))))" }
            return FilePermissions.folderProblem(info)
        } ?? "it is not a folder of its own (missing, a symbolic link, or closed to this user)"
    }

    /// Runs `body` with the folder at `path` open (not through a link); `nil` when it cannot be opened so.
    package static func withOpenFolder<Result>(_ path: String, _ body: (Int32) throws -> Result?) rethrows -> Result? {
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return try body(descriptor)
    }
}
