internal import CLibSecretShims

/// Conversions between Swift strings and the strings and NULL-terminated `gchar **` arrays GLib hands over.
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

    /// Takes one object path GLib allocated, frees it, and returns it; "/" (no object) for `NULL`.
    static func takeObjectPath(_ string: UnsafeMutablePointer<gchar>?) -> String {
        guard let string else { return "/" }
        defer { g_free(string) }
        return String(cString: string)
    }

    /// Calls `body` with a NULL-terminated `const gchar **` copy of `strings`.
    static func with<Result>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<gchar>?>) -> Result) -> Result {
        let copies = strings.map { UnsafePointer(g_strdup($0)) }
        defer { copies.forEach { g_free(UnsafeMutableRawPointer(mutating: $0)) } }
        var array = copies + [nil]
        return array.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
