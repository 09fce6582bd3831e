/// The two path operations the file code needs, on plain strings, the way
/// `NSString` does them, so the library needs only `FoundationEssentials`
/// (which has no `NSString`) and the tool does not load ICU to start.
package enum PathName {
    /// The folder part of `path`: `/a/b` → `/a`, `/a` → `/`, `b` → ``, `/a/b/` → `/a`.
    package static func parent(of path: String) -> String {
        var bytes = Substring(path)
        while bytes.count > 1, bytes.hasSuffix("/") { bytes = bytes.dropLast() }
        guard let slash = bytes.lastIndex(of: "/") else { return "" }
        if slash == bytes.startIndex { return "/" }
        var folder = bytes[..<slash]
        while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
        return String(folder)
    }

    /// `name` inside `folder`, with exactly one `/` between them; `name` alone when `folder` is empty.
    package static func join(_ folder: String, _ name: String) -> String {
        if folder.isEmpty { return name }
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
