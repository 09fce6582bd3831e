import Logging
import SwiftKeyring

#if canImport(FoundationEssentials)
import Glibc
#else
import Foundation
#endif

/// What both programs do first, before any secret is read.
package enum ProcessStart {
    /// Forbids core dumps and ptrace: a crash must not write the passphrase or a password
    /// to a core file, and other processes of this user must not read them.
    ///
    /// Nothing else happens here, since every command pays for it, `--version` included;
    /// the log is set up when a keyring is opened (`KeyringOpener.logger`).
    package static func begin() {
        ProcessHardening.forbidDumps()
    }

    /// The tool's log: standard error, at `SWIFT_KEYRING_LOG_LEVEL` (warnings by default).
    ///
    /// The handler is given to this one logger rather than installed with
    /// `LoggingSystem.bootstrap`: the tool makes no other logger, and the bootstrap's
    /// global state and the level's parsing (0.1M instructions together) were paid by
    /// every start, `--version` included.
    package static func makeLogger() -> Logger {
        // One variable through getenv: ProcessInfo's `environment` copies every variable into a dictionary.
        let word = getenv("SWIFT_KEYRING_LOG_LEVEL").map { String(cString: $0) } ?? ""
        let level = word.isEmpty ? .warning : Logger.Level(rawValue: word.lowercased()) ?? .warning
        return Logger(label: "swift-keyring") { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
