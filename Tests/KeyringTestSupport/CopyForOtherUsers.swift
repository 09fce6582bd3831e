import Foundation
import Synchronization

/// Copies of built programs that another user (uid 65534, through `setpriv`) can run.
///
/// The build folder sits in the checkout, and a checkout inside a folder others cannot
/// enter (a 0700 home, a `mktemp -d` clone) closes `.build/` to every other user: a test
/// that runs a program of the build as another uid would fail there with "could not run"
/// for a reason that has nothing to do with what it tests. So such a program is copied,
/// once per test process, into a 0755 folder of the tests' own under a folder every user
/// can enter, and the copy is what the other user runs.
package enum CopyForOtherUsers {
    private static let copies = Mutex<[String: String]>([:])

    /// The folder of the copies, 0755, removed when the test process exits.
    private static let folder: Result<URL, CocoaError> = {
        let folder = reachableTemporaryRoot().appendingPathComponent("swift-keyring-for-others.\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        // mkdir's mode is cut by the umask, so the mode is set again after.
        guard mkdir(folder.path, 0o755) == 0, chmod(folder.path, 0o755) == 0 else {
            return .failure(CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: folder.path]))
        }
        atexit {
            let folder = CopyForOtherUsers.reachableTemporaryRoot()
                .appendingPathComponent("swift-keyring-for-others.\(getpid())")
            try? FileManager.default.removeItem(at: folder)
        }
        return .success(folder)
    }()

    /// The temporary folder when every user can reach it (each folder on its path has o+x),
    /// else `/tmp`: a `TMPDIR` inside a private folder would close the copies again.
    private static func reachableTemporaryRoot() -> URL {
        let temporary = FileManager.default.temporaryDirectory.resolvingSymlinksInPath()
        var path = temporary
        while path.path != "/" {
            var info = stat()
            guard stat(path.path, &info) == 0, info.st_mode & S_IXOTH != 0 else { return URL(fileURLWithPath: "/tmp") }
            path.deleteLastPathComponent()
        }
        return temporary
    }

    /// The path of a copy of the program at `path` that every user can read and run (mode 0755).
    /// - Throws: when the folder or the copy cannot be made.
    package static func executable(_ path: String) throws -> String {
        try copies.withLock { copies in
            if let copy = copies[path] { return copy }
            let copy = try folder.get().appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent).path
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            guard chmod(copy, 0o755) == 0 else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: copy])
            }
            copies[path] = copy
            return copy
        }
    }
}
