#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Keyring

/// Opens the keyring the options describe, asking for the file's passphrase on a
/// terminal when none of the sources gives one.
enum KeyringOpener {
    static func open(_ options: StoreOptions) throws -> Keyring {
        var configuration = try options.configuration()
        do {
            return try Keyring(service: options.resolvedService, configuration: configuration)
        } catch KeyringError.passphraseRequired(let sources) where Terminal.isInteractive {
            configuration.fileSecret = try askPassphrase(for: configuration.fileURL, sources: sources)
            return try Keyring(service: options.resolvedService, configuration: configuration)
        }
    }

    /// Asks once for an existing file, twice (to catch a typo) for a file about to be created.
    private static func askPassphrase(for file: URL, sources: [String]) throws -> FileStoreSecret {
        let passphrase: String
        if FileManager.default.fileExists(atPath: file.path) {
            guard let entered = try Terminal.readSecret(prompt: "Passphrase for \(file.path): ", field: "passphrase") else {
                throw KeyringError.passphraseRequired(sources: sources)
            }
            passphrase = entered
        } else {
            Console.error("Creating \(file.path); choose its passphrase.")
            passphrase = try Terminal.readNewSecret(what: "New passphrase")
        }
        guard !passphrase.isEmpty else {
            throw KeyringError.invalidRecord(field: "passphrase", reason: "must not be empty")
        }
        return .passphrase(passphrase)
    }
}
