import Foundation

/// Private temporary folders for tests that need real files. They live under
/// one root per test process, which is removed when the process exits.
package enum TemporaryFolder {
    private static let root: URL = {
        let root = rootURL(for: getpid())
        try? FileManager.default.removeItem(at: root)
        if mkdir(root.path, 0o700) != 0 {
            fatalError("cannot create the test folder \(root.path): \(String(cString: strerror(errno)))")
        }
        atexit { try? FileManager.default.removeItem(at: TemporaryFolder.rootURL(for: getpid())) }
        return root
    }()

    private static func rootURL(for pid: Int32) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("swift-keyring-tests.\(pid)", isDirectory: true)
    }

    /// A new, empty folder with mode 0700.
    package static func make() throws -> URL {
        let folder = root.appendingPathComponent(UUID().uuidString, isDirectory: true)
        guard mkdir(folder.path, 0o700) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: folder.path])
        }
        return folder
    }
}
