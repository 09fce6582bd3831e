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
        abstract: "Forget the encrypted file's key that unlock kept for this login session.",
        discussion: """
            The next process that opens the file asks for its passphrase again (its usual \
            sources, or a prompt). Needs no passphrase: the key is found by the file's header. \
            Exit 0 also when the file was not unlocked.

              swift-keyring lock --backend file
            """
    )

    @OptionGroup var store: StoreOptions

    func run() throws {
        try reportingFailures {
            let selection = try store.selection()
            guard selection.kind == .file else {
                throw CommandFailure(
                    message: "lock forgets the encrypted file's unlocked key, but the \(selection.kind) store is in use "
                        + "(\(selection.reason)); use --backend file.",
                    status: ExitStatus.usage)
            }
            let url = try store.configuration().fileURL
            let path = PrintableField.escaped(url.path)
            if try EncryptedFileStore.lock(url: url) {
                Console.output("Locked \(path): its key is gone from the session keyring.")
            } else {
                Console.output("\(path) was not unlocked in this session; nothing to forget.")
            }
        }
    }
}
