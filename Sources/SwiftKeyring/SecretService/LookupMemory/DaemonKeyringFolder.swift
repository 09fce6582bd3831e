import Glibc

/// The folder where a running gnome-keyring keeps its keyring files, found as the
/// daemon finds it (`gkm_util_locate_keyrings_directory`) but from the daemon's own
/// environment (`/proc/PID/environ`), since ours may name another home:
/// `$XDG_DATA_HOME/keyrings`, else `$HOME/.local/share/keyrings`, unless only the old
/// `$HOME/.gnome2/keyrings` exists.
enum DaemonKeyringFolder {
    /// The folder of the daemon running as `processID`; `nil` when its environment
    /// cannot be read (another user, another PID namespace) or names no home.
    static func path(ofProcess processID: Int32) -> String? {
        guard let environment = environment(ofProcess: processID), let home = environment["HOME"], !home.isEmpty
        else { return nil }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
        let current = dataHome + "/keyrings"
        let old = home + "/.gnome2/keyrings"
        return !isFolder(current) && isFolder(old) ? old : current
    }

    /// The `NAME=value` pairs of `/proc/PID/environ`, which the kernel gives NUL-separated.
    private static func environment(ofProcess processID: Int32) -> [String: String]? {
        let path = "/proc/\(processID)/environ"
        guard let descriptor = try? POSIX.openIfPresent(path, O_RDONLY) else { return nil }
        defer { close(descriptor) }
        // The kernel reports a size of 0 for /proc files: the hint only sizes the first read.
        guard let bytes = try? POSIX.readAll(descriptor, path: path, sizeHint: 4096) else { return nil }
        var environment: [String: String] = [:]
        for entry in bytes.split(separator: 0) {
            guard let equals = entry.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = String(decoding: entry[..<equals], as: UTF8.self)
            environment[name] = String(decoding: entry[(equals + 1)...], as: UTF8.self)
        }
        return environment
    }

    private static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
