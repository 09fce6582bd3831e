import Foundation

/// Reading a secret piped to the tool.
enum StandardInput {
    /// Everything on standard input as UTF-8 text, with one trailing newline removed and nothing else,
    /// so a password with spaces, quotes, a leading U+FEFF or a final `\r` arrives exactly.
    static func readSecret(field: String) throws -> String {
        var bytes = FileHandle.standardInput.readDataToEndOfFile()
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        return try SecretText.decode(bytes, field: field)
    }
}
