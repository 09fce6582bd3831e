import KeyringCommandLine
import KeyringCrypto
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Opening a file store with proof of its passphrase: the commands that act on the file's key
/// (`unlock`, `passwd`) never take the key an earlier `unlock` kept, since whoever can reach the
/// session's keyring would otherwise keep or change the file's key without knowing the passphrase.
enum FileStoreOpening {
    /// The file store at `url` opened with its passphrase from the usual sources, else with one
    /// read once from standard input (echo off on a terminal) when no source gives one.
    static func openAsking<Store>(
        _ url: URL, fromSources: () throws -> Store, typed: (SecureBytes) throws -> Store
    ) throws -> Store {
        do {
            return try fromSources()
        } catch let error as KeyringError where error.code == .passphraseRequired {
            return try typed(try PasswordInput.read(prompt: "Passphrase for \(PrintableField.escaped(url.path)): "))
        }
    }

    /// The encrypted file the configuration names, opened as ``openAsking(_:fromSources:typed:)``
    /// opens it; never with a key an earlier `unlock` kept.
    static func encryptedFile(_ configuration: KeyringConfiguration) throws -> EncryptedFileStore {
        let url = configuration.fileURL
        return try openAsking(
            url,
            fromSources: {
                let secret = try FileStoreSecret.resolve(
                    explicit: configuration.fileSecret, environment: configuration.environment)
                return try EncryptedFileStore(
                    url: url, secret: secret, createIfMissing: false, lockTimeout: configuration.fileLockTimeout)
            },
            typed: { try EncryptedFileStore(url: url, typedPassphrase: $0, lockTimeout: configuration.fileLockTimeout) })
    }
}
