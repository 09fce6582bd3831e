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

    /// `readSecret` as bytes, never made into a `String` (whose storage cannot be wiped):
    /// the caller wipes them.
    static func readSecretBytes(field: String) throws -> [UInt8] {
        var bytes = readToEnd()
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        do {
            try SecretText.check(bytes, field: field)
        } catch {
            bytes.wipe()
            throw error
        }
        return bytes
    }

    /// Everything on standard input. A buffer it outgrows is wiped before it is freed.
    private static func readToEnd() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4096)
        var chunk = [UInt8](repeating: 0, count: 4096)
        defer { chunk.wipe() }
        while true {
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return bytes }
            if bytes.count + count > bytes.capacity {
                var grown: [UInt8] = []
                grown.reserveCapacity(max(2 * bytes.capacity, bytes.count + count))
                grown.append(contentsOf: bytes)
                swap(&bytes, &grown)
                grown.wipe()
            }
            bytes.append(contentsOf: chunk[..<count])
        }
    }
}
