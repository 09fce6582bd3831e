import ArgumentParser
import KeyringCommandLine
import KeyringCrypto
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `swift-keyring unlock [--for DURATION] [--collection NAME]`
struct UnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract:
            "Unlock the encrypted file or libsecret's file for this login session, or the Secret Service collection, with a password from standard input.",
        discussion: """
            The encrypted file (--backend file, or the store auto chooses): its passphrase \
            is taken from the usual sources (a passphrase file and the others) or read once \
            from standard input (typed with echo off on a terminal, or piped), the key is \
            derived and checked against the file, and the derived key (never the passphrase) \
            is kept in the kernel's session keyring for --for DURATION (1h by default; 90s, \
            30m, 8h, 1d, at most 30d), readable only by this login session's processes. \
            Until then every process of the session that opens the same file (the tool, the \
            git helper, apps using the library) skips the passphrase and Argon2id. \
            swift-keyring lock forgets the key; so does passwd.

              swift-keyring unlock --backend file --for 8h

            libsecret's file (--backend libsecret-file) keyed by a passphrase: the same, with \
            the file's key (PBKDF2's output, never the passphrase) kept under the file's salt \
            and iteration count, so a moved file still opens and another file never does. The \
            file must hold a record already: libsecret's format has no key check, so only its \
            records can tell a right passphrase from a mistyped one. Keyed by the Secret portal \
            (SWIFT_KEYRING_LIBSECRET_KEY=portal, or auto inside a sandbox), there is nothing to \
            unlock: the portal gives the key (exit 64).

              swift-keyring unlock --backend libsecret-file --for 8h

            The Secret Service: \
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

    @Option(
        name: .customLong("for"),
        help: ArgumentHelp(
            "How long the encrypted file or libsecret's file stays unlocked (90s, 30m, 8h, 1d).", valueName: "duration"))
    var duration: UnlockDuration = .oneHour

    /// Checked while the command line is parsed, so a duration out of range is refused before
    /// anyone is asked for a passphrase, and said as it was written.
    func validate() throws {
        guard duration.duration >= .seconds(1), duration.duration <= UnlockDuration.longest.duration else {
            throw ValidationError(
                "--for \(duration) is out of range: a key is kept at least 1s and at most \(UnlockDuration.longest) (30 days).")
        }
    }

    func run() throws {
        try reportingFailures {
            let selection = try store.selection()
            if selection.kind == .file {
                try unlockFile()
                return
            }
            if selection.kind == .libsecretFile {
                try unlockLibsecretFile(selection)
                return
            }
            guard selection.kind == .secretService else {
                throw CommandFailure(
                    message: "unlock unlocks the encrypted file, libsecret's file or a Secret Service collection, but the "
                        + "\(selection.kind) store is in use (\(selection.reason)); use --backend file, "
                        + "--backend libsecret-file or --backend secret-service.",
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

    /// Derives the file's key from its passphrase (the usual sources, else standard input) and
    /// keeps it in the session keyring; the passphrase itself goes nowhere.
    private func unlockFile() throws {
        let configuration = try store.configuration()
        let url = configuration.fileURL
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CommandFailure(
                message: "There is no encrypted file at \(PrintableField.escaped(url.path)); nothing to unlock.",
                status: ExitStatus.usage)
        }
        // Where nothing can be kept, say so before anyone types a passphrase or waits for Argon2id.
        try EncryptedFileStore.requireUnlockPossible()
        let file = try FileStoreOpening.encryptedFile(configuration)
        reportUnlocked(url, until: try file.unlock(for: duration.duration))
    }

    /// libsecret's file keyed by a passphrase: derives its key from the passphrase (the usual
    /// sources, else standard input), checks it against the file's items and keeps it in the
    /// session keyring. Keyed by the Secret portal, there is nothing to unlock.
    private func unlockLibsecretFile(_ selection: StoreSelection) throws {
        let configuration = try store.configuration()
        let url = configuration.resolvedLibsecretFileURL
        let path = PrintableField.escaped(url.path)
        guard !selection.keyedByPortal else {
            throw CommandFailure(
                message: "\(path) is keyed by \(selection.keySource ?? "the Secret portal's secret for this app"); "
                    + "the portal gives its key with no passphrase, so there is nothing to unlock.",
                status: ExitStatus.usage)
        }
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CommandFailure(message: "There is no libsecret file at \(path); nothing to unlock.", status: ExitStatus.usage)
        }
        // Where nothing can be kept, say so before anyone types a passphrase or waits for PBKDF2.
        try LibsecretFileStore.requireUnlockPossible()
        let file = try FileStoreOpening.openAsking(
            url,
            fromSources: {
                let key = try LibsecretFileKey.resolve(explicit: configuration.fileSecret, environment: configuration.environment)
                return try LibsecretFileStore(
                    url: url, key: key, createIfMissing: false, lockTimeout: configuration.fileLockTimeout)
            },
            typed: { try LibsecretFileStore(url: url, typedPassphrase: $0, lockTimeout: configuration.fileLockTimeout) })
        reportUnlocked(url, until: try file.unlock(for: duration.duration))
    }

    private func reportUnlocked(_ url: URL, until: Date) {
        Console.output(
            "Unlocked \(PrintableField.escaped(url.path)) for this login session until \(until.ISO8601Format()) "
                + "(\(duration)); swift-keyring lock forgets its key sooner.")
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
