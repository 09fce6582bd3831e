internal import CLibSecretShims

/// Conversions between `[String]` and GLib's NULL-terminated `gchar **` arrays.
enum CStringArray {
    /// Takes a `gchar **` that the caller owns, frees it, and returns its strings.
    static func take(_ strings: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?) -> [String] {
        guard let strings else { return [] }
        defer { g_strfreev(strings) }
        var result: [String] = []
        var index = 0
        while let string = strings[index] {
            result.append(String(cString: string))
            index += 1
        }
        return result
    }

    /// Calls `body` with a NULL-terminated `const gchar **` copy of `strings`.
    static func with<Result>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<gchar>?>) -> Result) -> Result {
        let copies = strings.map { UnsafePointer(g_strdup($0)) }
        defer { copies.forEach { g_free(UnsafeMutableRawPointer(mutating: $0)) } }
        var array = copies + [nil]
        return array.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
