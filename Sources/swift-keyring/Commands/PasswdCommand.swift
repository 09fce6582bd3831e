import ArgumentParser
import KeyringCommandLine
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `swift-keyring passwd`
struct PasswdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd",
        abstract: "Change the encrypted file's passphrase, keeping every record.",
        discussion: """
            The current passphrase comes from the usual sources (SWIFT_KEYRING_PASSPHRASE, \
            SWIFT_KEYRING_PASSPHRASE_FILE, $CREDENTIALS_DIRECTORY/swift-keyring.passphrase, \
            SWIFT_KEYRING_KEY_FILE) or a prompt (or standard input), even when the file is \
            unlocked: changing it takes knowing it; the new one from SWIFT_KEYRING_NEW_PASSPHRASE \
            or a prompt, asked twice. The file is re-encrypted under the new passphrase with the \
            current default key-derivation cost.

              SWIFT_KEYRING_NEW_PASSPHRASE="$NEW" swift-keyring passwd --backend file
            """
    )

    static let newPassphraseVariable = "SWIFT_KEYRING_NEW_PASSPHRASE"

    @OptionGroup var store: StoreOptions

    func run() throws {
        try reportingFailures {
            let selection = try store.selection()
            guard selection.kind == .file else {
                throw CommandFailure(
                    message: "passwd changes the encrypted file's passphrase, but the \(selection.kind) "
                        + "store is in use (\(selection.reason)); use --backend file.",
                    status: ExitStatus.usage
                )
            }
            // The current passphrase is asked for even when the file is unlocked: changing it takes
            // knowing it, not only reaching the session's keyring (an unattended terminal).
            let file = try FileStoreOpening.encryptedFile(try store.configuration())
            try file.changePassphrase(to: .passphrase(try newPassphrase()))
            Console.output("Changed the passphrase of \(file.url.path).")
        }
    }

    private func newPassphrase() throws -> String {
        let passphrase: String
        if let fromEnvironment = store.environment[Self.newPassphraseVariable] {
            passphrase = fromEnvironment
        } else if Terminal.isInteractive {
            passphrase = try Terminal.readNewSecret(what: "New passphrase")
        } else {
            throw CommandFailure(
                message: "No new passphrase: set \(Self.newPassphraseVariable) or run passwd on a terminal; nothing was changed.",
                status: ExitStatus.permission
            )
        }
        guard !passphrase.isEmpty else {
            throw CommandFailure(message: "Invalid new passphrase: must not be empty.", status: ExitStatus.invalidInput)
        }
        return passphrase
    }
}
