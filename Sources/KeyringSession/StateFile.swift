import Foundation
import Keyring

/// The plain JSON file that keeps a session's non-secure properties:
/// `state.json`, mode 0600, in a 0700 folder of its own per service.
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
    private static let name = "the session state file"

    let folder: String
    let lockTimeout: Duration
    var path: String { folder + "/state.json" }
    private var lockPath: String { folder + "/state.lock" }

    /// The stored values by raw name; empty when the file does not exist yet.
    /// - Throws: `KeyringError.damaged` naming the file when it is not a state file,
    ///   `KeyringError.backend` when it cannot be read.
    func read() throws -> [String: JSONValue] {
        guard let content = try POSIX.readFile(path, describedAs: Self.name) else { return [:] }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: content)
        } catch {
            throw KeyringError.damaged(reason: "\(Self.name) \(path) is not valid JSON of the expected shape")
        }
        guard document.format == Self.format else {
            throw KeyringError.damaged(reason: "\(Self.name) \(path) has format \(document.format), which this version cannot read")
        }
        return document.values
    }

    /// Reads the values, lets `change` edit them, and writes them back if they changed, all under the lock.
    func update(_ change: (inout [String: JSONValue]) throws -> Void) throws {
        try POSIX.makeDirectories(folder, mode: 0o700)
        try FileLock.withExclusiveLock(path: lockPath, timeout: lockTimeout) {
            let before = try read()
            var values = before
            try change(&values)
            guard values != before else { return }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let content = try encoder.encode(Document(format: Self.format, values: values))
            try POSIX.writeAtomically(content, to: path, mode: 0o600, describedAs: Self.name)
        }
    }

    /// `$XDG_STATE_HOME/swift-keyring/<service>`, or `~/.local/state/swift-keyring/<service>`
    /// when `XDG_STATE_HOME` is unset or not absolute (as the XDG spec says).
    static func defaultFolder(service: String, environment: [String: String]) -> String {
        let base: String
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = state
        } else {
            let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
            base = home + "/.local/state"
        }
        return base + "/swift-keyring/" + NameEncoding.escaped(service)
    }
}
