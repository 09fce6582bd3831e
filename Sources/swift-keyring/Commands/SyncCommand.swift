import ArgumentParser

/// `swift-keyring sync push`
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Work with the shared store of the records with the sync flag (--sync-store).",
        subcommands: [SyncPushCommand.self]
    )
}
