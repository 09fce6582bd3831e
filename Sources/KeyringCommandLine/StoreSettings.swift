import ArgumentParser
import KeyringEtcd
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The store options as plain values, each `nil` when not given, and what they select.
///
/// `StoreOptions` reads them from a command line through ArgumentParser's property
/// wrappers; making one runs those wrappers' set-up (name tables, generic metadata,
/// conformance lookups: about 0.45M instructions the first time). The command lines
/// the tool reads itself and the git credential helper make these values instead.
package struct StoreSettings: Sendable, Equatable {
    package var service: String?
    package var backend: String?
    package var etcdEndpoints: String?
    package var syncStore: String?
    package var file: String?
    package var promptTimeout: String?
    package var collection: String?
    package var sessionFallback: Bool

    package init(
        service: String? = nil, backend: String? = nil, etcdEndpoints: String? = nil, syncStore: String? = nil,
        file: String? = nil, promptTimeout: String? = nil, collection: String? = nil, sessionFallback: Bool = false
    ) {
        self.service = service
        self.backend = backend
        self.etcdEndpoints = etcdEndpoints
        self.syncStore = syncStore
        self.file = file
        self.promptTimeout = promptTimeout
        self.collection = collection
        self.sessionFallback = sessionFallback
    }

    /// The service: the option, else `SWIFT_KEYRING_SERVICE`, else `default`.
    package var resolvedService: String {
        service ?? nonEmpty(environment["SWIFT_KEYRING_SERVICE"]) ?? "default"
    }

    /// The Secret Service collection named: the option, else `SWIFT_KEYRING_COLLECTION`; `nil` for the default one.
    package var configurationCollection: String? {
        collection ?? nonEmpty(environment["SWIFT_KEYRING_COLLECTION"])
    }

    /// The process's environment, read once: each read of ProcessInfo's `environment` copies
    /// every variable into a new dictionary, and one command asks several times.
    package var environment: [String: String] { Self.processEnvironment }

    /// The environment every command reads, made once.
    package static let processEnvironment = ProcessEnvironment.read()

    /// The configuration for `Keyring`, with the options written over the environment.
    package func configuration() throws -> KeyringConfiguration {
        var environment = self.environment
        if let backend {
            guard backend == Self.etcdBackend || StoreChoice(rawValue: backend) != nil else {
                let words = (StoreChoice.allCases.map(\.rawValue) + [Self.etcdBackend]).joined(separator: ", ")
                throw ValidationError("--backend must be one of \(words), not \"\(backend)\"")
            }
            environment["SWIFT_KEYRING_BACKEND"] = backend
        } else if let word = environment["SWIFT_KEYRING_BACKEND"], !word.isEmpty, word != Self.etcdBackend,
            StoreChoice(rawValue: word) == nil
        {
            // The library's own list leaves out etcd, which it does not open but the tool does.
            let words = (StoreChoice.allCases.map(\.rawValue) + [Self.etcdBackend]).joined(separator: ", ")
            throw KeyringError.invalidConfiguration(
                setting: "SWIFT_KEYRING_BACKEND", reason: "must be one of \(words), not \"\(word)\"")
        }
        if let file {
            // The file of the file store chosen: libsecret's, when that is the one.
            let libsecret = (backend ?? environment["SWIFT_KEYRING_BACKEND"]) == StoreChoice.libsecretFile.rawValue
            environment[libsecret ? LibsecretFileStore.fileVariable : "SWIFT_KEYRING_FILE"] = file
        }
        if let collection {
            guard !collection.isEmpty else { throw ValidationError("--collection must not be empty") }
            environment["SWIFT_KEYRING_COLLECTION"] = collection
        }
        if sessionFallback { environment["SWIFT_KEYRING_SESSION_FALLBACK"] = "true" }
        if let promptTimeout {
            let checked = KeyringConfiguration(environment: ["SWIFT_KEYRING_PROMPT_TIMEOUT": promptTimeout])
            guard !promptTimeout.isEmpty, (try? checked.requestedPromptTimeout()) != nil else {
                throw ValidationError(
                    "--prompt-timeout must be a number of seconds greater than zero, such as 120, not \"\(promptTimeout)\"")
            }
            environment["SWIFT_KEYRING_PROMPT_TIMEOUT"] = promptTimeout
        }
        return KeyringConfiguration(environment: environment)
    }

    /// The `--backend` word the tool handles itself: the etcd store lives in `KeyringEtcd`, which `Keyring` does not know.
    package static let etcdBackend = StoreKind.etcd.rawValue

    /// Which store the options select, and why, without opening it (so without a secret): `Keyring`'s
    /// own decision, or the etcd store, which the tool opens itself.
    package func selection() throws -> StoreSelection {
        guard selectsEtcd else { return try Keyring.selection(for: configuration()) }
        let etcd = try etcdConfiguration()
        let source = backend != nil ? "asked for by --backend" : "forced by SWIFT_KEYRING_BACKEND"
        return StoreSelection(kind: .etcd, reason: "\(source); prefix \(etcd.prefix)")
    }

    /// Whether the option, else `SWIFT_KEYRING_BACKEND`, asks for the etcd store.
    package var selectsEtcd: Bool { requestedBackend == Self.etcdBackend }

    /// The store the option, else `SWIFT_KEYRING_BACKEND`, asks for, as written; `nil` for neither.
    package var requestedBackend: String? { backend ?? nonEmpty(environment["SWIFT_KEYRING_BACKEND"]) }

    /// The etcd store's configuration, with `--etcd-endpoints` written over `SWIFT_KEYRING_ETCD_ENDPOINTS`.
    package func etcdConfiguration() throws -> EtcdConfiguration {
        var environment = self.environment
        if let etcdEndpoints { environment[EtcdConfiguration.endpointsVariable] = etcdEndpoints }
        return try EtcdConfiguration(environment: environment)
    }

    /// The `--sync-store` word that turns sharing off, also over `SWIFT_KEYRING_SYNC_STORE`.
    package static let noSyncStore = "none"

    /// Whether records with the sync flag live in a shared store, which, and why: the option, else
    /// `SWIFT_KEYRING_SYNC_STORE`; `nil` store when sharing is off.
    /// - Throws: `ValidationError` for an unknown word, or a shared store that is the local store too.
    package func syncSetting() throws -> SyncSetting {
        let source = syncStore != nil ? "--sync-store" : "SWIFT_KEYRING_SYNC_STORE"
        guard let word = syncStore ?? nonEmpty(environment["SWIFT_KEYRING_SYNC_STORE"]), word != Self.noSyncStore else {
            if selectsEtcd {
                return SyncSetting(store: nil, reason: "the store itself is etcd, which every host shares")
            }
            return SyncSetting(
                store: nil,
                reason:
                    "no shared store is set (--sync-store etcd or SWIFT_KEYRING_SYNC_STORE=etcd): records with the sync flag stay on this machine"
            )
        }
        guard word == Self.etcdBackend else {
            throw ValidationError("\(source) must be \(Self.etcdBackend) or \(Self.noSyncStore), not \"\(word)\"")
        }
        guard !selectsEtcd else {
            throw ValidationError(
                "\(source) \(word) needs a local store (--backend secret-service, file, memory, kernel or auto), not etcd itself")
        }
        return SyncSetting(store: .etcd, reason: "set by \(source)")
    }

    private func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
