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
        var bytes = readToEnd()
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        return try SecretText.decode(bytes, field: field)
    }

    private static func readToEnd() -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        defer { for index in chunk.indices { chunk[index] = 0 } }
        while true {
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return data }
            data.append(contentsOf: chunk[..<count])
        }
    }
}
