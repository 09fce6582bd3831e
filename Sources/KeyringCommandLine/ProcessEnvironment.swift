#if canImport(FoundationEssentials)
import Glibc
#else
import Foundation
#endif

/// The process's environment as a dictionary, read straight from `environ`.
///
/// `ProcessInfo.processInfo.environment` makes the same dictionary, but through
/// FoundationEssentials' locked, generic path: 0.42M instructions in a
/// `swift-keyring get`, against 0.1M for a `String` per entry split at its `=`, and
/// less again here, where `memchr` finds the `=` and each name and value is made once
/// from its bytes. The first of several identical variables wins, as with `getenv`:
/// the entries are read last to first, so the first one is the one left standing.
package enum ProcessEnvironment {
    /// The variables of `entries`, a null-terminated array of `NAME=value` strings
    /// (`environ` unless given); an entry without `=` is skipped.
    package static func read(_ entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = environ) -> [String: String] {
        var count = 0
        while entries[count] != nil { count += 1 }
        var environment = [String: String](minimumCapacity: count)
        for index in stride(from: count - 1, through: 0, by: -1) {
            guard let entry = entries[index] else { continue }
            let length = strlen(entry)
            guard let equals = memchr(entry, Int32(UInt8(ascii: "=")), length) else { continue }
            let nameLength = UnsafeRawPointer(equals) - UnsafeRawPointer(entry)
            let bytes = UnsafeRawBufferPointer(start: entry, count: length)
            let name = String(decoding: bytes[..<nameLength], as: UTF8.self)
            environment[name] = String(decoding: bytes[(nameLength + 1)...], as: UTF8.self)
        }
        return environment
    }
}
