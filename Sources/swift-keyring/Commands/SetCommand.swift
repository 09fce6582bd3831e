import ArgumentParser
import KeyringCommandLine
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `swift-keyring set [KEY] --username USER --url URL [--sync] [--background-access]`
struct SetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Store credentials; the password comes from standard input or a prompt, never from the arguments.",
        discussion: """
            With standard input from a pipe or file, the password is all of it, less one trailing \
            newline, and at most 1 MiB (reading stops there). An empty password is refused \
            (exit 65): an empty pipe is nearly always an unset variable. Give \
            --allow-empty-password to store one on purpose. On a terminal the tool asks twice \
            without echo.

              printf %s "$PW" | swift-keyring set gh --username bob --url https://github.com
            """
    )

    @Argument(help: "The record's key; left out, the default record.")
    var key: String?

    @Option(help: "The account name.")
    var username: String

    @Option(help: "The account's http or https URL.")
    var url: String

    @Flag(
        help:
            "Set the record's sync flag: with a shared store (--sync-store) the record lives there, for every host; without one it is stored as given, here."
    )
    var sync = false

    @Flag(name: .customLong("background-access"), help: "Set the record's background-access flag (stored as given).")
    var backgroundAccess = false

    @Flag(
        name: .customLong("allow-empty-password"),
        help: "Store an empty password when standard input is empty (refused otherwise, exit 65).")
    var allowEmptyPassword = false

    @OptionGroup var store: StoreOptions

    func run() throws {
        try reportingFailures {
            // The text is not quoted back: a URL that does not parse may still hold a user's password.
            guard let parsed = URL(string: url) else {
                throw KeyringError.invalidRecord(
                    field: "url",
                    reason:
                        "does not parse as a URL (look for spaces, unescaped characters, or a missing ] around an IPv6 address)"
                )
            }
            // Validated before the password is asked for, so a typo costs no typing.
            let credentials = try Credentials(
                username: username, password: "", url: parsed, syncEnabled: sync, backgroundAccess: backgroundAccess)
            // As bytes to the store, which wipes them, whether piped or typed: a `String` of the
            // password would stay in freed memory. A typed one waits in secure memory till then.
            let password =
                Terminal.isInteractive
                ? try Terminal.readNewSecretBytes(what: "Password").withBytes { Array($0) }
                : try StandardInput.readSecretBytes(field: "password")
            // An empty pipe is nearly always an unset variable (`printf %s "$TOKEN" |`), not a choice.
            guard !password.isEmpty || allowEmptyPassword else {
                throw CommandFailure(
                    message: "The password on standard input is empty (an unset variable?); nothing was stored. "
                        + "Give --allow-empty-password to store an empty password on purpose.",
                    status: ExitStatus.invalidInput)
            }
            try KeyringOpener.open(store).set(credentials, passwordBytes: consume password, forKey: key ?? Keyring.defaultKey)
        }
    }
}
