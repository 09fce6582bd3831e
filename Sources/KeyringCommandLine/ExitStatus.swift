import ArgumentParser
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The tool's exit statuses (sysexits.h), in one place so scripts can rely on them.
package enum ExitStatus {
    package static let notFound = ExitCode(1)
    package static let usage = ExitCode(64)
    package static let invalidInput = ExitCode(65)
    package static let unavailable = ExitCode(69)
    package static let damaged = ExitCode(74)
    /// EX_TEMPFAIL: part of the answer was printed, the rest could not be had now (`list` with the shared store down).
    package static let partial = ExitCode(75)
    package static let permission = ExitCode(77)

    /// The status for a keyring error.
    package static func of(_ error: KeyringError) -> ExitCode {
        switch error.code {
        case .notFound: return notFound
        case .invalidRecord: return invalidInput
        // A setting from the environment is part of how the tool was called, like the option it stands for.
        case .invalidConfiguration: return usage
        case .damaged: return damaged
        case .wrongPassphrase, .insecurePermissions, .passphraseRequired: return permission
        // The store could not do it now (unavailable, locked, a prompt dismissed or unanswered,
        // too slow, a library failure), and any code a later version adds.
        default: return unavailable
        }
    }
}

/// A failure the tool reports itself: one line on standard error, then the status.
package struct CommandFailure: Error {
    package var message: String
    package var status: ExitCode

    package init(message: String, status: ExitCode) {
        self.message = message
        self.status = status
    }
}

extension ParsableCommand {
    /// Runs `body`, turning every error into one line on standard error and the matching exit status.
    /// Errors are `KeyringError` descriptions, which never carry a secret.
    package func reportingFailures(_ body: () throws -> Void) throws {
        try CommandFailures.reporting(body)
    }
}

/// How a command reports its failures, for commands with or without a `ParsableCommand`.
package enum CommandFailures {
    /// Runs `body`, turning every error into one line on standard error and the matching exit status.
    /// Errors are `KeyringError` descriptions, which never carry a secret.
    package static func reporting(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as KeyringError {
            Console.error(error.description + advice(for: error))
            throw ExitStatus.of(error)
        } catch let failure as CommandFailure {
            Console.error(failure.message)
            throw failure.status
        }
    }

    /// What to do next, where the error itself does not say.
    private static func advice(for error: KeyringError) -> String {
        switch error.code {
        case .serviceUnavailable where error.unavailability?.kind == .noPasswordUnlock:
            // The message says what to do: the daemon is there, it only cannot be unlocked this way.
            return ""
        case .serviceUnavailable:
            return " Run `swift-keyring doctor` to see why, or use --backend file."
        case .promptTimedOut:
            return " Unlock the keyring, or wait longer with --prompt-timeout or SWIFT_KEYRING_PROMPT_TIMEOUT."
        case .wrongPassphrase where error.place == .secretService:
            // Only `unlock` sends the Secret Service a password; the environment played no part.
            return ""
        case .wrongPassphrase:
            return " Check SWIFT_KEYRING_PASSPHRASE, SWIFT_KEYRING_PASSPHRASE_FILE or SWIFT_KEYRING_KEY_FILE."
        default:
            return ""
        }
    }
}
