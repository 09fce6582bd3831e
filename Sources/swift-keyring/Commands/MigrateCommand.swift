import ArgumentParser
import KeyringCommandLine
import SwiftKeyring

/// `swift-keyring migrate --from BACKEND --to BACKEND [--remove-source]`
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy every record of the service from one store to another, for example from a host's file to the fleet.",
        discussion: """
            Copies credentials and secrets, the default record included, replacing records with the same key. \
            With --remove-source the source's records are removed only after every one was copied, so a \
            failure part way leaves the source whole, and running the command again finishes the copy. \
            Both stores read their settings from the usual options and variables (one passphrase or key \
            source serves both the file and etcd).

              swift-keyring migrate --from file --to etcd --service com.example.deploy
              swift-keyring migrate --from etcd --to file --remove-source
            """
    )

    @Option(
        help: ArgumentHelp(
            "The store to copy from: secret-service, file, memory, libsecret-file, kernel or etcd.", valueName: "backend"))
    var from: String

    @Option(
        help: ArgumentHelp(
            "The store to copy into: secret-service, file, memory, libsecret-file, kernel or etcd.", valueName: "backend"))
    var to: String

    @Flag(help: "Remove the records from the source once every one was copied.")
    var removeSource = false

    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard from != to else {
            throw ValidationError("--from and --to name the same store (\(from)); nothing to migrate")
        }
        for (option, word) in [("--from", from), ("--to", to)] where word == StoreChoice.auto.rawValue {
            throw ValidationError("\(option) must name a store, not auto")
        }
    }

    func run() throws {
        try reportingFailures {
            var source = store
            source.backend = from
            // Migration copies one store's records: the source is read as a store alone.
            source.syncStore = StoreOptions.noSyncStore
            var destination = store
            destination.backend = to
            let sourceKeyring = try KeyringOpener.open(source)
            let destinationKeyring = try KeyringOpener.open(destination)
            let count = try destinationKeyring.migrate(from: sourceKeyring, removingFromSource: removeSource)
            let removed = removeSource ? ", and removed them from \(from)" : ""
            Console.output(
                "Copied \(count) record\(count == 1 ? "" : "s") of \(store.resolvedService) from \(from) to \(to)\(removed).")
        }
    }
}
