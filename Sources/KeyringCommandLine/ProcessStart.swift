import Logging
import SwiftKeyring

#if canImport(FoundationEssentials)
import Glibc
#else
import Foundation
#endif

/// What both programs do first, before any secret is read.
package enum ProcessStart {
    /// Forbids core dumps and ptrace (a crash must not write the passphrase or a password
    /// to a core file, and other processes of this user must not read them), and sends the
    /// library's log to standard error at `SWIFT_KEYRING_LOG_LEVEL` (warnings by default).
    package static func begin() {
        ProcessHardening.forbidDumps()
        // One variable through getenv: ProcessInfo's `environment` copies every variable into a
        // dictionary, a cost `--version` and `--help` need not pay (StoreOptions builds it once).
        let word = getenv("SWIFT_KEYRING_LOG_LEVEL").map { String(cString: $0) } ?? ""
        let level = Logger.Level(rawValue: word.lowercased()) ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
