import Foundation

/// What the kernel shows of the session keyring's keys to this process, which possesses the
/// same session keyring as the tool it runs.
enum SessionKeys {
    /// The line of /proc/keys for the key named `name` (id, flags, usage, timeout, permissions, …), or `nil`.
    static func procLine(_ name: String) throws -> String? {
        // Read to the end: String(contentsOfFile:) stops after the first 4 KiB of a /proc file
        // (its size is 0), and with a few dozen keys in the session the one sought lies beyond.
        guard let handle = FileHandle(forReadingAtPath: "/proc/keys") else { return nil }
        defer { try? handle.close() }
        let text = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        return text.split(separator: "\n").first { $0.contains(" \(name): ") }.map(String.init)
    }
}
