#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The paths one private file uses: the file, its folder, its lock file and its temporary file.
/// The keyring file and the session state file are both kept this way.
package struct StorePaths: Sendable {
    package let file: String
    package let folder: String
    /// Beside the file and never replaced, so `flock` on it means something (see `FileLock`).
    package let lock: String
    /// The next version is written here, then renamed over `file`. Only the holder of
    /// the lock writes it, so one fixed name is enough and a crash leaves at most one behind.
    package let temporary: String

    /// The keyring file's paths: `<file>.lock` and `<file>.tmp` beside it.
    package init(_ url: URL) {
        self.init(file: Self.standardizedPath(url), lockName: nil)
    }

    /// `url.standardizedFileURL.path`, without FoundationEssentials when there is nothing to
    /// standardise: an absolute path with no `.` or `..` component and no `//` is its own
    /// standard form (`PathName.path(of:)` says why FoundationEssentials is avoided).
    private static func standardizedPath(_ url: URL) -> String {
        let path = PathName.path(of: url)
        let plain =
            path.utf8.count > 1 && path.utf8.first == UInt8(ascii: "/")
            && path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst().allSatisfy {
                !$0.isEmpty && !$0.elementsEqual(".".utf8) && !$0.elementsEqual("..".utf8)
            }
        return plain ? path : url.standardizedFileURL.path
    }

    /// The paths of `file`, with the lock file named `lockName` in the same folder
    /// (`<file>.lock` when `nil`), for files whose lock name is already in use on disk.
    package init(file: String, lockName: String?) {
        let folder = PathName.parent(of: file)
        self.file = file
        self.folder = folder
        lock = lockName.map { PathName.join(folder, $0) } ?? file + ".lock"
        temporary = file + ".tmp"
    }
}
