import Foundation

/// Rewrites a keyring file's header as anyone who can write the file could:
/// other Argon2id parameters, with the header checksum made to match again
/// (docs/FILE_FORMAT.md, "Header"), so only the parameter bounds can refuse it.
package enum HeaderPatch {
    /// `file` with the header's `t`, `m` and `p` replaced and its checksum recomputed.
    package static func parameters(_ file: Data, iterations: UInt32, memoryKiB: UInt32, parallelism: UInt32) throws -> Data {
        var bytes = [UInt8](file)
        for (offset, value) in [(12, iterations), (16, memoryKiB), (20, parallelism)] {
            bytes.replaceSubrange(offset..<(offset + 4), with: withUnsafeBytes(of: value.bigEndian, Array.init))
        }
        bytes.replaceSubrange(88..<96, with: try sha256(Data(bytes[0..<88])).prefix(8))
        return Data(bytes)
    }

    /// SHA-256 by coreutils' `sha256sum`, as the tests link no hash of their own.
    private static func sha256(_ data: Data) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: data)
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let hex = Array(text.prefix(64))
        return stride(from: 0, to: hex.count, by: 2).compactMap { UInt8(String(hex[$0...($0 + 1)]), radix: 16) }
    }
}
