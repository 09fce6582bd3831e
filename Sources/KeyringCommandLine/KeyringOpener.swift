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
                ? configuration.libsecretFileURL ?? LibsecretFileStore.defaultURL(environment: configuration.environment)
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

    /// The password stored under `key`, read straight from the Secret Service before any
    /// keyring is opened (`Keyring.directPassword`); `nil` when `open` must be asked: on
    /// etcd, with a sync store, or whenever the direct read does not answer plainly.
    package static func directPassword(_ options: StoreSettings, key: String) -> String? {
        direct(options) { Keyring.directPassword(forKey: key, service: $0, configuration: $1) }
    }

    /// The credentials stored under `key`, read as `directPassword` reads; `nil` when `open` must be asked.
    package static func directCredentials(_ options: StoreSettings, key: String) -> Credentials? {
        direct(options) { Keyring.directCredentials(forKey: key, service: $0, configuration: $1) }
    }

    /// `Keyring.chosenPassword(choosing:)` read as `directPassword` reads; `nil` when `open` must be asked.
    package static func directChosenPassword(_ options: StoreSettings, choosing choose: ([String]) -> [String])
        -> (key: String, password: String)?
    {
        direct(options) { Keyring.directChosenPassword(service: $0, configuration: $1, choosing: choose) }
    }

    /// What `read` answers for the keyring `options` describe (its service and configuration),
    /// when a direct read may stand in for it: one store, the Secret Service asked for or
    /// chosen by `auto` (a `get` on a file asked for does not pay for the checks). An answer
    /// is logged at `debug`, since no store was opened and store selection's own lines are
    /// missing; the logger is made only when a level is set, so a plain `get` does not pay for it.
    private static func direct<Answer>(
        _ options: StoreSettings, _ read: (String, KeyringConfiguration) -> Answer?
    ) -> Answer? {
        let requested = options.requestedBackend
        guard requested == nil || requested == StoreChoice.auto.rawValue || requested == StoreChoice.secretService.rawValue,
            let sync = try? options.syncSetting(), !sync.isOn,
            let configuration = try? options.configuration(),
            let answer = read(options.resolvedService, configuration)
        else { return nil }
        if getenv("SWIFT_KEYRING_LOG_LEVEL") != nil {
            logger.debug(
                "read directly from the Secret Service's default collection; no store opened",
                metadata: ["service": "\(options.resolvedService)"])
        }
        return answer
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
