internal import KeyringCrypto

#if canImport(FoundationEssentials)
import Glibc
#else
import Foundation
#endif

/// All of a descriptor's bytes up to a bound, in one buffer sized once: what the docker helper
/// reads (standard input, a config file) may hold a secret, and a growing buffer would leave
/// each outgrown copy in freed memory where no wipe reaches it.
enum DockerBoundedRead {
    /// The bytes of `descriptor` to its end, or the first `bound + 1` and more: `overflowed` says
    /// which. The caller wipes them.
    static func all(from descriptor: Int32, bound: Int) -> (bytes: [UInt8], overflowed: Bool) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        bytes.reserveCapacity(bound + chunk.count)
        defer { chunk.wipe() }
        while bytes.count <= bound {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return (bytes, bytes.count > bound)
    }
}
