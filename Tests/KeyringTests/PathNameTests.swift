import Foundation
import SwiftKeyring
import Testing

/// `PathName` replaced `NSString`'s path calls when the library moved to
/// FoundationEssentials; the lock file, the temporary file and the folders made
/// for a store must land exactly where they did. The expected values are what
/// swift-corelibs-foundation 6.3's `NSString` gives, one process per path (a loop
/// over them in one process stopped it with an illegal instruction inside
/// `deletingLastPathComponent`, so the test does not call it).
@Suite("Path names")
struct PathNameTests {
    @Test(
        "The folder of a path is what NSString's deletingLastPathComponent gave",
        arguments: [
            ("/a/b", "/a"), ("/a/b/", "/a"), ("/a//b", "/a"), ("/a", "/"), ("/", "/"), ("b", ""), ("a/b", "a"),
            ("/tmp/x.keyring", "/tmp"), ("//a", "/"), ("/a/b//", "/a"), ("", ""),
        ]
    )
    func parent(path: String, folder: String) {
        #expect(PathName.parent(of: path) == folder)
    }

    @Test(
        "A name in a folder is what NSString's appendingPathComponent gave",
        arguments: [
            ("/a", "b", "/a/b"), ("/a/", "b", "/a/b"), ("/", "b", "/b"), ("", "b", "b"),
            ("/home/u", ".local/share", "/home/u/.local/share"),
        ]
    )
    func join(folder: String, name: String, path: String) {
        #expect(PathName.join(folder, name) == path)
    }

    /// The store reads a file URL's path without FoundationEssentials when nothing in it is
    /// encoded or to standardise; where something is, it asks FoundationEssentials. Either
    /// way the path must be FoundationEssentials' own.
    @Test(
        "A file URL's path, and the store's standardised path, are FoundationEssentials' own",
        arguments: [
            "/tmp/keyring.skr", "/tmp/a b/k", "/tmp/ключ", "/tmp/a%b", "/tmp/a?b#c", "/tmp/dir/", "/",
            "/a/./b/../c", "/a//b", "/a/..", "/a/.hidden/k", "/a/..b/k",
        ]
    )
    func pathOfURL(path: String) {
        let url = URL(fileURLWithPath: path)
        #expect(PathName.path(of: url) == url.path)
        #expect(StorePaths(url).file == url.standardizedFileURL.path)
    }
}
