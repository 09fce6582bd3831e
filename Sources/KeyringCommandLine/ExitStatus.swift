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
            Console.error(sentence(for: error) + advice(for: error))
            throw ExitStatus.of(error)
        } catch let failure as CommandFailure {
            Console.error(failure.message)
            throw failure.status
        }
    }

    /// The error as a person at a shell reads it: the library's description, except where
    /// that speaks to a program (an "explicit passphrase or key" is an argument of the API) or
    /// suggests what the advice says better.
    private static func sentence(for error: KeyringError) -> String {
        switch error.code {
        case .locked where error.place == .secretService:
            return "The Secret Service collection is locked."
        case .locked where error.place == nil:
            return "The keyring is locked."
        case .passphraseRequired:
            let sources = (error.sources ?? []).filter { $0.hasPrefix("SWIFT_") || $0.hasPrefix("$") }
            let store = error.place == .libsecretFile ? "libsecret's keyring file" : "The keyring file"
            return "\(store) needs a passphrase or key, and none of \(sources.joined(separator: ", ")) gives one. "
                + "Set one of them (a file readable by you only is safest), or run `swift-keyring unlock` first."
        default:
            return error.description
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
        case .locked where error.place == .secretService || error.place == nil:
            // Without a display the daemon's prompt cannot be shown, so only a typed or piped password unlocks it.
            return hasDisplay
                ? " Unlock it at the desktop's prompt, or run `swift-keyring unlock`."
                : " No unlock prompt can be shown here (neither DISPLAY nor WAYLAND_DISPLAY is set): "
                    + "run `swift-keyring unlock`, which reads its password from standard input."
        case .promptTimedOut:
            return " Unlock the keyring, or wait longer with --prompt-timeout or SWIFT_KEYRING_PROMPT_TIMEOUT."
        case .wrongPassphrase where error.place == .secretService:
            // Only `unlock` sends the Secret Service a password; the environment played no part.
            return ""
        case .wrongPassphrase:
            let set = setPassphraseSources
            guard !set.isEmpty else { return " The passphrase typed or piped on standard input is not the file's." }
            return
                " Check \(set.joined(separator: " and ")): \(set.count == 1 ? "it is" : "they are") set, and used before standard input."
        case .damaged where error.place == .keyringFile || error.place == .libsecretFile:
            return " Put back a backup of the file, or move the file aside (its records are then lost; "
                + "the next `set` starts a new file); see the README's Troubleshooting."
        case .damaged:
            return " Nothing was changed; see the README's Troubleshooting."
        default:
            return ""
        }
    }

    /// Whether the daemon's unlock prompt has a display to be shown on.
    private static var hasDisplay: Bool {
        let environment = ProcessInfo.processInfo.environment
        return !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    }

    /// The passphrase sources that are set, as a person names them to check.
    private static var setPassphraseSources: [String] {
        let environment = ProcessInfo.processInfo.environment
        var set = ["SWIFT_KEYRING_PASSPHRASE", "SWIFT_KEYRING_PASSPHRASE_FILE"].filter { !(environment[$0] ?? "").isEmpty }
        if let folder = environment["CREDENTIALS_DIRECTORY"], !folder.isEmpty,
            FileManager.default.fileExists(atPath: folder + "/swift-keyring.passphrase")
        {
            set.append("$CREDENTIALS_DIRECTORY/swift-keyring.passphrase")
        }
        if !(environment["SWIFT_KEYRING_KEY_FILE"] ?? "").isEmpty { set.append("SWIFT_KEYRING_KEY_FILE") }
        return set
    }
}
