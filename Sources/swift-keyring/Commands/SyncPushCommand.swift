import ArgumentParser
import KeyringCommandLine
import SwiftKeyring

/// `swift-keyring sync push`
struct SyncPushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Move this machine's records that carry the sync flag into the shared store.",
        discussion: """
            Records stored with the sync flag before a shared store was set stay on this machine \
            until this command moves them: each is written to the shared store, then removed here. \
            Records without the flag are not touched. Running it again after a failure finishes the move.

              swift-keyring sync push --sync-store etcd --service com.example.mail
            """
    )

    @OptionGroup var store: StoreOptions

    func run() throws {
        try reportingFailures {
            guard try store.syncSetting().isOn else {
                throw CommandFailure(
                    message: "sync push needs a shared store: give --sync-store etcd or set SWIFT_KEYRING_SYNC_STORE=etcd.",
                    status: ExitStatus.usage)
            }
            let keyring = try KeyringOpener.open(store)
            let count = try keyring.pushSyncedRecords()
            let shared = keyring.syncStore.map { PrintableField.escaped("\($0.identity)") } ?? "the shared store"
            Console.output(
                "Moved \(count) record\(count == 1 ? "" : "s") of \(store.resolvedService) to \(shared).")
        }
    }
}
