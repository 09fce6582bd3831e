import KeyringCommandLine

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// Reading a secret piped to the tool.
enum StandardInput {
    /// Everything on standard input as UTF-8 text, with one trailing newline removed and nothing else,
    /// so a password with spaces, quotes, a leading U+FEFF or a final `\r` arrives exactly.
    static func readSecret(field: String) throws -> String {
        var bytes = try readSecretBytes(field: field)
        defer { bytes.wipe() }
        return try SecretText.decode(bytes, field: field)
    }

    /// The longest password `set` takes, as the library's record rule has it (1 MiB).
    static let maximumPasswordBytes = 1 << 20

    /// `readSecret` as bytes, never made into a `String` (whose storage cannot be wiped):
    /// the caller wipes them. Reading stops past `maximumBytes` (and one final newline), so
    /// 100 MiB piped by mistake costs 1 MiB of memory and is refused, not read whole first.
    /// - Throws: `CommandFailure` (65) naming `field` when it is longer than `maximumBytes` or not UTF-8.
    static func readSecretBytes(field: String, maximumBytes: Int = maximumPasswordBytes) throws -> [UInt8] {
        var bytes = readToEnd(atMost: maximumBytes + 2)
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        do {
            guard bytes.count <= maximumBytes else {
                throw CommandFailure(
                    message: "The \(field) on standard input is longer than \(maximumBytes >> 20) MiB; "
                        + "reading stopped there and nothing was changed.",
                    status: ExitStatus.invalidInput)
            }
            try SecretText.check(bytes, field: field)
        } catch {
            bytes.wipe()
            throw error
        }
        return bytes
    }

    /// Standard input up to its end or `limit` bytes, whichever comes first. A buffer it
    /// outgrows is wiped before it is freed.
    private static func readToEnd(atMost limit: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4096)
        var chunk = [UInt8](repeating: 0, count: 4096)
        defer { chunk.wipe() }
        while bytes.count < limit {
            let wanted = min(chunk.count, limit - bytes.count)
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, wanted) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return bytes }
            if bytes.count + count > bytes.capacity {
                var grown: [UInt8] = []
                grown.reserveCapacity(min(max(2 * bytes.capacity, bytes.count + count), limit))
                grown.append(contentsOf: bytes)
                swap(&bytes, &grown)
                grown.wipe()
            }
            bytes.append(contentsOf: chunk[..<count])
        }
        return bytes
    }
}
