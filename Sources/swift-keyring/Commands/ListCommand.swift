import ArgumentParser
import KeyringCommandLine
import SwiftKeyring

extension RecordPlace: ExpressibleByArgument {}

/// `swift-keyring list [--json] [--sync-only] [--background-access-only] [--place local|shared] [--show-place]`
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the service's records: key, username, URL and flags, never a password.",
        discussion: """
            One line a record, the fields separated by tabs; flags are `sync`, \
            `background-access`, both joined by a comma, or `-`. A control character \
            in a field is shown escaped, as \\t, \\n, \\r, \\e, \\xHH or \\u{HH}, and a \
            backslash as \\\\ (docs/CLI.md's "list" says how to undo it); --json gives every field exactly.

            With a shared store (--sync-store), the records of both stores are listed; --show-place adds \
            a fifth field, `local` or `shared`, saying where each lives (--json always has `place`), and \
            --place local lists this machine's records without asking the shared store. When the shared \
            store cannot be reached, this machine's records are listed, standard error says the shared \
            ones are missing, and the exit status is 75 (a partial list).

              swift-keyring list --sync-only
              swift-keyring list --sync-store etcd --show-place
            """
    )

    @Flag(help: "Print one JSON array of objects: key, username, url, sync, backgroundAccess, place.")
    var json = false

    @Flag(name: .customLong("show-place"), help: "Add a fifth field: where the record lives, local or shared.")
    var showPlace = false

    @Option(help: ArgumentHelp("Only the records that live there: local or shared.", valueName: "place"))
    var place: RecordPlace?

    @Flag(name: .customLong("sync-only"), help: "Only records with the sync flag.")
    var syncOnly = false

    @Flag(name: .customLong("background-access-only"), help: "Only records with the background-access flag.")
    var backgroundAccessOnly = false

    @OptionGroup var store: StoreOptions

    func run() throws {
        try reportingFailures {
            let keyring = try KeyringOpener.open(store)
            let (records, missing) = try listing(keyring)
            if json {
                Console.output(try JSONOutput.encode(records.map(RecordJSON.init)))
            } else {
                printLines(records)
            }
            if let missing {
                throw CommandFailure(
                    message: "The list is partial: only this machine's records are shown, since the shared store "
                        + "could not be reached: \(missing.description)",
                    status: ExitStatus.partial)
            }
        }
    }

    /// The records asked for and, when the shared store could not be reached, why: then the local store's alone.
    private func listing(_ keyring: Keyring) throws -> (records: [CredentialsSummary], missing: KeyringError?) {
        func list(_ place: RecordPlace?) throws -> [CredentialsSummary] {
            try keyring.list(
                syncEnabled: syncOnly ? true : nil, backgroundAccess: backgroundAccessOnly ? true : nil, place: place)
        }
        do {
            return (try list(place), nil)
        } catch let error as KeyringError where place == nil && keyring.isSharedStoreDown(error) {
            return (try list(.local), error)
        }
    }

    /// One tab-separated line a record.
    private func printLines(_ records: [CredentialsSummary]) {
        for record in records {
            var flags: [String] = []
            if record.syncEnabled { flags.append("sync") }
            if record.backgroundAccess { flags.append("background-access") }
            let fields = [record.key, record.username, record.url.absoluteString].map(PrintableField.escaped)
            let placeField = showPlace ? [record.place.rawValue] : []
            Console.output(
                (fields + [flags.isEmpty ? "-" : flags.joined(separator: ",")] + placeField).joined(separator: "\t"))
        }
    }
}
