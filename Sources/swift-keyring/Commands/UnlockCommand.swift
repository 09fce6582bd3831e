import ArgumentParser
import KeyringCommandLine
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `swift-keyring unlock [--collection NAME]`
struct UnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Unlock the Secret Service collection with its password, read from standard input, without a prompt.",
        discussion: """
            For a terminal with no desktop (SSH, a container), where nobody sees the daemon's \
            unlock prompt. The password is read from standard input, never from an argument: \
            typed with echo off on a terminal, or piped (one final newline is dropped). It is \
            sent to the daemon encrypted and wiped afterwards. Unlocks the default collection, \
            or the one --collection (SWIFT_KEYRING_COLLECTION) names. Only gnome-keyring can \
            unlock this way; KeePassXC and KWallet cannot (exit 69). A wrong password leaves \
            the collection locked (exit 77). A collection already unlocked is left as it is, \
            and no password is read. With no default collection at all (WSL, a minimal \
            session), it is created, locked with the password given (asked twice on a \
            terminal), as gnome-keyring-daemon --unlock creates the login keyring.

              swift-keyring unlock
              swift-keyring unlock --collection work < ~/.config/work-keyring-password
            """
    )

    @OptionGroup var store: StoreOptions

    func run() throws {
        try reportingFailures {
            let selection = try store.selection()
            guard selection.kind == .secretService else {
                throw CommandFailure(
                    message: "unlock unlocks a Secret Service collection, but the \(selection.kind) store is in use "
                        + "(\(selection.reason)); use --backend secret-service.",
                    status: ExitStatus.usage)
            }
            let keyring = try KeyringOpener.open(store)
            guard let service = keyring.store as? SecretServiceStore else {
                throw CommandFailure(
                    message: "unlock unlocks a Secret Service collection, but the \(keyring.selection.kind) store is in use.",
                    status: ExitStatus.usage)
            }
            let inUse = try service.collectionInUse()
            if inUse.path == nil, store.configurationCollection == nil {
                try createDefault(service)
                return
            }
            let collection = PrintableField.escaped(inUse.path ?? "the collection")
            // gnome-keyring answers any password for an unlocked collection with success,
            // so a wrong one would read as right: nothing is asked or sent then.
            guard try service.isLocked() else {
                Console.output("\(collection) is already unlocked; no password was read.")
                return
            }
            let password = try PasswordInput.read(prompt: "Password of the Secret Service collection: ")
            try service.unlock(password: password)
            Console.output("Unlocked \(collection).")
        }
    }

    /// No default collection (WSL, a minimal session): create it with the password, as
    /// `gnome-keyring-daemon --unlock` creates the login keyring; asked twice on a terminal.
    private func createDefault(_ service: SecretServiceStore) throws {
        Console.error("There is no default collection; creating it, locked with the password you give.")
        let password = try PasswordInput.read(prompt: "New password of the default collection: ")
        if Terminal.isInteractive {
            let again = try PasswordInput.read(prompt: "Repeat the password: ")
            let same = password.withBytes { first in again.withBytes { first.elementsEqual($0) } }
            guard same else {
                throw CommandFailure(message: "The two entries differ; nothing was changed.", status: ExitStatus.invalidInput)
            }
        }
        let path = try service.createDefaultCollection(password: password)
        Console.output("Created the default collection \(PrintableField.escaped(path)); it is unlocked.")
    }
}
