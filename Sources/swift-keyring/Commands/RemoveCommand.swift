import ArgumentParser
import KeyringCommandLine
import SwiftKeyring

/// `swift-keyring remove [KEY]`
struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove one record; exit status 1 when there was none.",
        discussion: "  swift-keyring remove github"
    )

    @Argument(help: "The record's key; left out, the default record.")
    var key: String?

    @OptionGroup var store: StoreOptions

    func run() throws {
        try reportingFailures {
            let key = key ?? Keyring.defaultKey
            guard try KeyringOpener.open(store).remove(forKey: key) else {
                throw KeyringError.notFound(key: key)
            }
        }
    }
}
