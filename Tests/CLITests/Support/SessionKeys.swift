import Foundation

/// What the kernel shows of the session keyring's keys to this process, which possesses the
/// same session keyring as the tool it runs.
enum SessionKeys {
    /// The line of /proc/keys for the key named `name` (id, flags, usage, timeout, permissions, …), or `nil`.
    static func procLine(_ name: String) throws -> String? {
        try String(contentsOfFile: "/proc/keys", encoding: .utf8).split(separator: "\n")
            .first { $0.contains(" \(name): ") }.map(String.init)
    }
}
