import ArgumentParser
import KeyringCommandLine
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `swift-keyring get [KEY] [--json]`
struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print a record's password (or, with --json, the whole record).",
        discussion: """
              TOKEN=$(swift-keyring get github)
              swift-keyring get github --json | jq -r .username
            """
    )

    @Argument(help: "The record's key; left out, the default record.")
    var key: String?

    @Flag(help: "Print one JSON object: key, username, password, url, sync, backgroundAccess.")
    var json = false

    @OptionGroup var store: StoreOptions

    func run() throws {
        try reportingFailures {
            let key = key ?? Keyring.defaultKey
            let keyring = try KeyringOpener.open(store)
            if json {
                guard let credentials = try keyring.credentials(forKey: key) else { throw KeyringError.notFound(key: key) }
                Console.output(try JSONOutput.encode(RecordJSON(key: key, credentials: credentials)))
            } else {
                // The password alone: on the Secret Service one D-Bus call fewer than the whole record.
                guard let password = try keyring.password(forKey: key) else { throw KeyringError.notFound(key: key) }
                Console.output(password)
            }
        }
    }
}
