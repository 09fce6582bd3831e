import Glibc
import Synchronization

/// The changes to the files in a folder, seen through inotify and counted once per
/// process, however many stores watch that folder: an inotify instance per store
/// would run into the user's limit on them (128 by default, shared with every other
/// program of the user) in a process that opens many stores.
///
/// One lock for the list of folders and for every count, so that a reader who finds
/// the queue empty waits until another reader has counted the events it took, and
/// never reads a count that misses them. The watch closes when its last holder lets go.
final class FolderWatch: Sendable {
    /// One inotify instance, shared by the watches of its folder; its fields change
    /// only under `folders`' lock.
    private final class Folder: @unchecked Sendable {
        let path: String
        let descriptor: Int32
        /// Reads that returned events.
        var events: UInt32 = 0
        /// The folder itself went away: nothing seen here is trusted.
        var lost = false
        /// Watches holding this folder.
        var users = 1

        init(path: String, descriptor: Int32) {
            self.path = path
            self.descriptor = descriptor
        }
    }

    /// Every folder watched in this process, by path.
    private static let folders = Mutex<[String: Folder]>([:])

    /// Every way a file there can change: written in place (as gnome-keyring writes),
    /// created, removed or renamed; and the folder itself going.
    private static let mask = UInt32(
        IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF
            | IN_MOVE_SELF)

    private let folder: Folder

    /// Watches `path`, sharing this process's watch of it when there is one; `nil` when inotify refuses.
    init?(path: String) {
        let found = Self.folders.withLock { folders -> Folder? in
            if let folder = folders[path], !folder.lost {
                folder.users += 1
                return folder
            }
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            guard inotify_add_watch(descriptor, path, Self.mask) >= 0 else {
                close(descriptor)
                return nil
            }
            let folder = Folder(path: path, descriptor: descriptor)
            folders[path] = folder
            return folder
        }
        guard let found else { return nil }
        folder = found
    }

    deinit {
        Self.folders.withLock { folders in
            folder.users -= 1
            guard folder.users == 0 else { return }
            if folders[folder.path] === folder { folders[folder.path] = nil }
            close(folder.descriptor)
        }
    }

    /// How many times the folder was seen to change, a count that only grows; `nil`
    /// once the folder itself went away (nothing seen there is trusted then).
    func count() -> UInt32? {
        Self.folders.withLock { _ in
            var changed = false
            withUnsafeTemporaryAllocation(byteCount: 4096, alignment: MemoryLayout<inotify_event>.alignment) { buffer in
                while true {
                    let length = read(folder.descriptor, buffer.baseAddress, buffer.count)
                    if length < 0 && errno == EINTR { continue }
                    guard length > 0 else { break }
                    changed = true
                    var offset = 0
                    while offset < length {
                        let event = buffer.baseAddress!.advanced(by: offset).loadUnaligned(as: inotify_event.self)
                        if event.mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                            folder.lost = true
                        }
                        offset += MemoryLayout<inotify_event>.size + Int(event.len)
                    }
                }
            }
            if changed { folder.events &+= 1 }
            return folder.lost ? nil : folder.events
        }
    }
}
