import ArgumentParser
import KeyringEtcd
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The options every subcommand takes, each with an environment variable of the same meaning.
package struct StoreOptions: ParsableArguments {
    package init() {}

    @Option(help: ArgumentHelp("The app's namespace (default: $SWIFT_KEYRING_SERVICE, else \"default\").", valueName: "name"))
    package var service: String?

    @Option(
        help: ArgumentHelp(
            "auto, secret-service, file, memory, libsecret-file, kernel or etcd (default: $SWIFT_KEYRING_BACKEND, else auto).",
            valueName: "backend"))
    package var backend: String?

    @Option(
        help: ArgumentHelp(
            "The etcd members' client URLs, comma-separated (default: $SWIFT_KEYRING_ETCD_ENDPOINTS, else http://127.0.0.1:2379).",
            valueName: "urls"))
    package var etcdEndpoints: String?

    @Option(
        name: .customLong("sync-store"),
        help: ArgumentHelp(
            "The shared store of the records with the sync flag: etcd (its settings as for --backend etcd), or none (default: $SWIFT_KEYRING_SYNC_STORE, else none).",
            valueName: "store"))
    package var syncStore: String?

    @Option(
        help: ArgumentHelp(
            "The encrypted keyring file (default: $SWIFT_KEYRING_FILE, else the XDG data folder); with --backend libsecret-file, libsecret's keyring file (default: $SWIFT_KEYRING_LIBSECRET_FILE, else $XDG_DATA_HOME/keyrings/default.keyring).",
            valueName: "path"))
    package var file: String?

    @Option(
        name: .customLong("prompt-timeout"),
        help: ArgumentHelp(
            "How long to wait for you at an unlock prompt of a locked keyring (default: $SWIFT_KEYRING_PROMPT_TIMEOUT, else 120).",
            valueName: "seconds"
        )
    )
    package var promptTimeout: String?

    @Option(
        help: ArgumentHelp(
            "The Secret Service collection to use, by alias, label or path; nothing outside it is read or removed (default: $SWIFT_KEYRING_COLLECTION, else the default collection).",
            valueName: "name"))
    package var collection: String?

    @Flag(
        name: .customLong("session-fallback"),
        help: ArgumentHelp(
            "With no default collection, and none the daemon creates, keep records in the Secret Service's session collection, in memory until logout (default: $SWIFT_KEYRING_SESSION_FALLBACK)."
        ))
    package var sessionFallback = false

    /// The Secret Service collection named: the option, else `SWIFT_KEYRING_COLLECTION`; `nil` for the default one.
    package var configurationCollection: String? { settings.configurationCollection }

    /// Options with the values of `settings`, as ArgumentParser would set them.
    package init(_ settings: StoreSettings) {
        service = settings.service
        backend = settings.backend
        etcdEndpoints = settings.etcdEndpoints
        syncStore = settings.syncStore
        file = settings.file
        promptTimeout = settings.promptTimeout
        collection = settings.collection
        sessionFallback = settings.sessionFallback
    }

    /// The same options as a plain value, which the commands hand to the keyring code.
    package var settings: StoreSettings {
        StoreSettings(
            service: service, backend: backend, etcdEndpoints: etcdEndpoints, syncStore: syncStore, file: file,
            promptTimeout: promptTimeout, collection: collection, sessionFallback: sessionFallback)
    }

    /// The service: the option, else `SWIFT_KEYRING_SERVICE`, else `default`.
    package var resolvedService: String { settings.resolvedService }

    /// The process's environment, read once.
    package var environment: [String: String] { StoreSettings.processEnvironment }

    /// The configuration for `Keyring`, with the options written over the environment.
    package func configuration() throws -> KeyringConfiguration { try settings.configuration() }

    /// The `--backend` word the tool handles itself: the etcd store lives in `KeyringEtcd`, which `Keyring` does not know.
    package static let etcdBackend = StoreSettings.etcdBackend

    /// Which store the options select, and why, without opening it (so without a secret).
    package func selection() throws -> StoreSelection { try settings.selection() }

    /// Whether the option, else `SWIFT_KEYRING_BACKEND`, asks for the etcd store.
    package var selectsEtcd: Bool { settings.selectsEtcd }

    /// The etcd store's configuration, with `--etcd-endpoints` written over `SWIFT_KEYRING_ETCD_ENDPOINTS`.
    package func etcdConfiguration() throws -> EtcdConfiguration { try settings.etcdConfiguration() }

    /// The `--sync-store` word that turns sharing off, also over `SWIFT_KEYRING_SYNC_STORE`.
    package static let noSyncStore = StoreSettings.noSyncStore

    /// Whether records with the sync flag live in a shared store, which, and why.
    package func syncSetting() throws -> SyncSetting { try settings.syncSetting() }
}
