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

    /// What this command was asked, as plain values.
    var request: GetRequest { GetRequest(key: key, json: json, store: store.settings) }

    func run() throws {
        try request.run()
    }
}

/// What `swift-keyring get` does, for a `GetCommand` or a command line the tool read itself
/// (`CommandLineShortcut`), which never makes a `GetCommand`.
struct GetRequest: Equatable {
    var key: String?
    var json: Bool
    var store: StoreSettings

    func run() throws {
        try CommandFailures.reporting {
            let key = key ?? Keyring.defaultKey
            let keyring = try KeyringOpener.open(store)
            if json {
                // Written from the password's bytes and wiped, as the password alone is below.
                guard var record = try keyring.credentialsAndPasswordBytes(forKey: key) else {
                    throw KeyringError.notFound(key: key)
                }
                var line = RecordJSON.line(key: key, credentials: record.credentials, password: record.password)
                record.password.wipe()
                Console.outputSecret(&line)
            } else {
                // The password alone: on the Secret Service one D-Bus call fewer than the whole record.
                // As bytes, written and wiped: a `String` would leave the password in freed memory.
                guard var password = try keyring.passwordBytes(forKey: key) else { throw KeyringError.notFound(key: key) }
                Console.outputSecret(&password)
            }
        }
    }
}
