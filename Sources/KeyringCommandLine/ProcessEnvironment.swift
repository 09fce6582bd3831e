#if canImport(FoundationEssentials)
import Glibc
#else
import Foundation
#endif

/// The process's environment as a dictionary, read straight from `environ`.
///
/// `ProcessInfo.processInfo.environment` makes the same dictionary, but through
/// FoundationEssentials' locked, generic path: 0.42M instructions in a
/// `swift-keyring get`, against 0.1M here. The first of several identical
/// variables wins, as with `getenv`.
package enum ProcessEnvironment {
    package static func read() -> [String: String] {
        var count = 0
        while environ[count] != nil { count += 1 }
        var environment = [String: String](minimumCapacity: count)
        for index in 0..<count {
            guard let entry = environ[index] else { continue }
            let text = String(cString: entry)
            guard let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = String(text[..<equals])
            if environment[name] == nil {
                environment[name] = String(text[text.utf8.index(after: equals)...])
            }
        }
        return environment
    }
}
