#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The path operations the file code needs, on plain strings, the way
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

    /// `url.path`, read straight from a `file:///` URL when nothing in it is percent-encoded
    /// (no `%`, `?` or `#`) and it does not end in `/`: FoundationEssentials' `path` decodes
    /// through a `Set<UInt8>` whose first use scans every conformance record of the binary,
    /// about 0.25M instructions, a tenth of a whole file-store `get` after the loader.
    package static func path(of url: URL) -> String {
        let text = url.absoluteString
        let scheme = "file://"
        guard text.hasPrefix(scheme + "/") else { return url.path }
        let path = text.utf8.dropFirst(scheme.utf8.count)
        let plain =
            path.last != UInt8(ascii: "/")
            && !path.contains { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
        return plain ? String(Substring(path)) : url.path
    }
}
