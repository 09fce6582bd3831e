import Foundation
import SwiftKeyring

/// The plain JSON file that keeps a session's non-secure properties:
/// `state.json`, mode 0600, in a 0700 folder of its own per service.
///
/// It follows exactly the keyring file's rules, through the same plumbing
/// (`POSIX`, `FilePermissions`, `FileLock`, `AtomicFileWriter`): the folder and
/// the file must belong to this user and be closed to everyone else, checked on
/// every read and write; neither the file nor its lock is opened through a
/// symbolic link; a FIFO in the file's place is refused, not waited on.
///
/// Readers need no lock (writes replace the file by rename); writers hold
/// `FileLock` while they read, change and write, so concurrent writers in
/// any process keep each other's changes. A file that cannot be read or
/// parsed is an error and is never overwritten.
struct StateFile: Sendable {
    /// The file's content: a format number, so later versions can change it, and the values by raw name.
    private struct Document: Codable {
        var format: Int
        var values: [String: JSONValue]
    }

    static let format = 1

    /// `state.json` and, beside it, `state.lock` (the name earlier versions use, so they still take turns).
    private let paths: StorePaths
    let lockTimeout: Duration
    var path: String { paths.file }

    init(folder: String, lockTimeout: Duration) {
        paths = StorePaths(file: PathName.join(folder, "state.json"), lockName: "state.lock")
        self.lockTimeout = lockTimeout
    }

    /// The stored values by raw name; empty when the file does not exist yet.
    /// - Throws: `KeyringError.damaged` naming the file when it is not a state file,
    ///   `.insecurePermissions` when the file or its folder is open to others, belongs
    ///   to another user, or is not a regular file, `.backend` when it cannot be read.
    func read() throws -> [String: JSONValue] {
        try KeyringError.placing(in: .sessionStateFile) { try readValues() }
    }

    private func readValues() throws -> [String: JSONValue] {
        // Checked on every read: a folder opened up or given away since the last write must not be trusted.
        guard let folder = try POSIX.statIfPresent(paths.folder) else { return [:] }
        try FilePermissions.require(paths.folder, FilePermissions.folderProblem(folder))
        guard let (descriptor, info) = try POSIX.openRegularFileIfPresent(paths.file) else { return [:] }
        defer { close(descriptor) }
        try FilePermissions.require(paths.file, FilePermissions.fileProblem(info))
        let content = try POSIX.readAll(descriptor, path: paths.file, sizeHint: Int(info.st_size))
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: Data(content))
        } catch {
            throw KeyringError.damaged(reason: "\(path) is not valid JSON of the expected shape")
        }
        guard document.format == Self.format else {
            throw KeyringError.damaged(reason: "\(path) has format \(document.format), which this version cannot read")
        }
        return document.values
    }

    /// Reads the values, lets `change` edit them, and writes them back if they changed, all under the lock.
    func update(_ change: (inout [String: JSONValue]) throws -> Void) throws {
        try FilePermissions.prepareFolder(paths.folder, create: true)
        try FileLock.withExclusiveLock(paths, call: .starting(timeout: lockTimeout), operation: "locking \(paths.lock)") {
            let before = try read()
            var values = before
            try change(&values)
            guard values != before else { return }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let content = try encoder.encode(Document(format: Self.format, values: values))
            _ = try AtomicFileWriter.replace(paths, with: Array(content))
        }
    }

    /// `$XDG_STATE_HOME/swift-keyring/<service>`, or `~/.local/state/swift-keyring/<service>`
    /// when `XDG_STATE_HOME` is unset or not absolute (as the XDG spec says).
    static func defaultFolder(service: String, environment: [String: String]) -> String {
        XDGBaseDirectory.state.path(environment: environment) + "/swift-keyring/" + NameEncoding.escaped(service)
    }
}
