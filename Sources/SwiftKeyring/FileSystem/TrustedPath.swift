#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// The path of a file this package reads a secret from, with its symbolic links followed only
/// where nobody but root or this user could have changed the way to it.
///
/// A link is refused where someone else could swap it, and taken where they cannot, so a
/// Kubernetes Secret volume (`key -> ..data/key`, `..data -> ..2026_12_02_…/`, folders of root)
/// works. The rule is OpenSSH's `safe_path()` for the files it trusts: every folder on the way
/// — the folders of each link and of the file it leads to, up to `/` — belongs to root or this
/// user and nobody else may write it. A folder with the sticky bit (`/tmp`) is the one exception:
/// others may add entries there but not rename or remove one of ours, and every entry we go
/// through is checked for its owner in turn.
package enum TrustedPath {
    /// Linux's own limit on links in one lookup.
    private static let maximumLinks = 40

    /// The path with every symbolic link resolved, or `nil` when nothing is at `path`.
    /// - Throws: `.insecurePermissions` naming the first folder or link that someone other
    ///   than root or this user owns or may write, or a chain of links too long to follow.
    package static func resolve(_ path: String) throws -> String? {
        var checked: Set<String> = []
        var current = absolute(path)
        for _ in 0...maximumLinks {
            try checkFoldersOfEveryComponent(current, checked: &checked)
            guard let info = try POSIX.lstatIfPresent(current) else { return nil }
            guard info.st_mode & S_IFMT == S_IFLNK else {
                return try realPath(current)
            }
            current = try target(of: current)
        }
        throw KeyringError.insecurePermissions(
            path: path, reason: "it leads through more than \(maximumLinks) symbolic links")
    }

    /// Checks the folder of every component of `path` (`/a/b/c`: the real folders holding `a`,
    /// `b` and `c`), so a link in the middle of a path is trusted only in a safe folder too.
    private static func checkFoldersOfEveryComponent(_ path: String, checked: inout Set<String>) throws {
        var prefix = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            let folder = prefix.isEmpty ? "/" : prefix
            guard let real = try? realPath(folder) else { return }
            try checkFolderChain(real, checked: &checked)
            prefix += "/" + component
            // A link's owner matters where others may add entries (a sticky folder such as /tmp).
            if let info = try? POSIX.lstatIfPresent(prefix), info.st_mode & S_IFMT == S_IFLNK {
                try FilePermissions.require(prefix, ownerProblem(info, what: "the symbolic link"))
            }
        }
    }

    /// Checks `folder` (a path with no links) and every folder above it, up to `/`.
    private static func checkFolderChain(_ folder: String, checked: inout Set<String>) throws {
        var current = folder
        while !checked.contains(current) {
            guard let info = try POSIX.lstatIfPresent(current) else { return }
            try FilePermissions.require(current, folderProblem(info))
            checked.insert(current)
            let parent = PathName.parent(of: current)
            if parent == current || parent.isEmpty { return }
            current = parent
        }
    }

    /// Why a folder on the way cannot be trusted: it is another user's, or others may write it.
    private static func folderProblem(_ info: stat) -> String? {
        if let problem = ownerProblem(info, what: "a folder on the way to the file") { return problem }
        let writableByOthers = info.st_mode & 0o022 != 0
        let sticky = info.st_mode & S_ISVTX != 0
        if writableByOthers && !sticky {
            return "it is a folder on the way to the file and its mode \(FilePermissions.octal(info.st_mode)) "
                + "lets others change what is in it; chmod go-w it, or give a path through folders only root or you can write"
        }
        return nil
    }

    private static func ownerProblem(_ info: stat, what: String) -> String? {
        let me = geteuid()
        guard info.st_uid != me, info.st_uid != 0 else { return nil }
        return "\(what) belongs to user \(info.st_uid), not to this user (\(me)) or root, "
            + "so its owner could swap the file; give a path where only root or you own every folder"
    }

    private static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let folder = getcwd(nil, 0) else { return path }
        defer { free(folder) }
        return PathName.join(String(cString: folder), path)
    }

    /// Where the link at `path` points, made absolute from the link's own folder.
    private static func target(of path: String) throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { throw POSIX.failure("readlink \(path)", errno) }
        let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return target.hasPrefix("/") ? target : PathName.join(PathName.parent(of: path), target)
    }

    private static func realPath(_ path: String) throws -> String {
        guard let resolved = realpath(path, nil) else { throw POSIX.failure("realpath \(path)", errno) }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
