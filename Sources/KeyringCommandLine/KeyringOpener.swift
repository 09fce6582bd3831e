import KeyringEtcd
import Logging
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// Opens the keyring the options describe, asking for the file's passphrase on a
/// terminal when none of the sources gives one.
package enum KeyringOpener {
    /// The tool's log: the library logs nowhere unless given a logger, and the tool
    /// wants its lines on standard error at `SWIFT_KEYRING_LOG_LEVEL` (`ProcessStart.makeLogger`).
    package static let logger = ProcessStart.makeLogger()

    package static func open(_ options: StoreOptions) throws -> Keyring {
        try open(options.settings)
    }

    package static func open(_ options: StoreSettings) throws -> Keyring {
        let sync = try options.syncSetting()
        if options.selectsEtcd {
            return try Keyring(
                service: options.resolvedService, store: EtcdStore(configuration: options.etcdConfiguration()), logger: logger)
        }
        // The shared store opens when a call first needs it, so a device-only record the local store
        // holds is read and written with the fleet down; its settings are checked now, as any option is.
        let shared: (any CredentialStore)? = try sync.isOn ? sharedStore(options.etcdConfiguration()) : nil
        var configuration = try options.configuration()
        do {
            return try Keyring(
                service: options.resolvedService, configuration: configuration, syncStore: shared, logger: logger)
        } catch let error as KeyringError where error.code == .passphraseRequired && Terminal.isInteractive {
            // The file whose passphrase is asked for: libsecret's, when that store is the one chosen.
            let file =
                (try? configuration.requestedStore()) == .libsecretFile
                ? configuration.resolvedLibsecretFileURL
                : configuration.fileURL
            configuration.fileSecret = try askPassphrase(for: file, sources: error.sources ?? [])
            return try Keyring(
                service: options.resolvedService, configuration: configuration, syncStore: shared, logger: logger)
        }
    }

    /// The etcd store of `configuration`, opened by the first call that needs it.
    private static func sharedStore(_ configuration: EtcdConfiguration) -> LazyStore {
        LazyStore(identity: EtcdStore.identity(of: configuration), callTimeout: configuration.timeout) { call in
            try EtcdStore(configuration: configuration, call: call)
        }
    }

    /// Asks once for an existing file, twice (to catch a typo) for a file about to be created.
    private static func askPassphrase(for file: URL, sources: [String]) throws -> FileStoreSecret {
        let passphrase: String
        if FileManager.default.fileExists(atPath: file.path) {
            guard let entered = try Terminal.readSecret(prompt: "Passphrase for \(file.path): ", field: "passphrase") else {
                throw KeyringError.passphraseRequired(sources: sources).placed(in: .keyringFile)
            }
            passphrase = entered
        } else {
            Console.error("Creating \(file.path); choose its passphrase.")
            passphrase = try Terminal.readNewSecret(what: "New passphrase")
        }
        guard !passphrase.isEmpty else {
            throw CommandFailure(message: "Invalid passphrase: must not be empty.", status: ExitStatus.invalidInput)
        }
        return .passphrase(passphrase)
    }
}
