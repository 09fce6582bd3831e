import ArgumentParser
import KeyringCommandLine
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `swift-keyring lock`
struct LockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Forget the key of the encrypted file or libsecret's file that unlock kept for this login session.",
        discussion: """
            The next process that opens the file asks for its passphrase again (its usual \
            sources, or a prompt). Needs no passphrase: the key is found by the file's header. \
            Exit 0 also when the file was not unlocked.

              swift-keyring lock --backend file
              swift-keyring lock --backend libsecret-file
            """
    )

    @OptionGroup var store: StoreOptions

    func run() throws {
        try reportingFailures {
            let selection = try store.selection()
            let configuration = try store.configuration()
            let url: URL
            let locked: Bool
            switch selection.kind {
            case .file:
                url = configuration.fileURL
                locked = try EncryptedFileStore.lock(url: url)
            case .libsecretFile:
                url = configuration.resolvedLibsecretFileURL
                locked = try LibsecretFileStore.lock(url: url)
            default:
                throw CommandFailure(
                    message: "lock forgets the unlocked key of the encrypted file or libsecret's file, but the "
                        + "\(selection.kind) store is in use (\(selection.reason)); use --backend file or --backend libsecret-file.",
                    status: ExitStatus.usage)
            }
            let path = PrintableField.escaped(url.path)
            if locked {
                Console.output("Locked \(path): its key is gone from the session keyring.")
            } else {
                Console.output("\(path) was not unlocked in this session; nothing to forget.")
            }
        }
    }
}
