#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// What tells one version of the keyring file from another without reading it:
/// device, inode, size and modification time.
///
/// Writers replace the file by rename, so a new version has a new inode. The
/// store keeps the version it read open (see `PinnedFile`), so that inode number
/// cannot be reused by a later version while the store compares against it.
struct FileIdentity: Sendable, Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
    }
}

/// An open descriptor of the file version the store last read or wrote,
/// closed when the store moves on to another version.
package final class PinnedFile: Sendable {
    package let descriptor: Int32

    package init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
