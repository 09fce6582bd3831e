import KeyringCommandLine
import KeyringEtcd
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `doctor` found; never a secret, since it opens no store that needs one.
struct DoctorReport: Encodable {
    struct Bus: Encodable {
        var answers: Bool
        var secretService: Bool
        var detail: String
        /// Whether the default collection is locked; `nil` when that could not be asked.
        var collectionLocked: Bool?
        /// The program owning `org.freedesktop.secrets`, such as `gnome-keyring-daemon (pid 812)`; `nil` when none does.
        var owner: String?
        /// The collection records go to, such as `/org/freedesktop/secrets/collection/login`; `nil` when there is none.
        var collection: String?
        /// Why that collection, or what a write does when there is none; `nil` when that could not be asked.
        var collectionReason: String?
        /// Whether the collection was named (`--collection`, `SWIFT_KEYRING_COLLECTION`) rather than the default one.
        var collectionNamed = false
    }

    /// Whether a locked keyring can ask the person for its password here.
    struct Prompt: Encodable {
        /// A display (`DISPLAY` or `WAYLAND_DISPLAY`) is set, so the daemon's unlock prompt can be shown.
        var canShow: Bool
        /// How long the tool waits for the person at a prompt, in seconds.
        var timeoutSeconds: Double
    }

    struct File: Encodable {
        var path: String
        var exists: Bool
        var mode: String?
        var folderMode: String?
        var problem: String?
        /// How the file's key is made, read from its header without the passphrase.
        var keyDerivation: String?
        /// Why that is a concern (weaker than the default, or a header that would be refused).
        var keyDerivationProblem: String?
        /// Until when (ISO 8601) the file's key, kept by `swift-keyring unlock` in the session's
        /// kernel keyring, opens it without the passphrase; `nil` when no key is kept. For
        /// libsecret's file keyed by the Secret portal, always `nil`: the portal gives the key.
        var unlockedUntil: String?
    }

    /// Whether records with the sync flag live in a shared store, and why.
    struct Sync: Encodable {
        var enabled: Bool
        var reason: String
        /// The shared store's kind, such as `etcd`, when sync is on.
        var store: String?
        /// When sync is on, whether each half answers: `up`, or `down: why`.
        var local: String?
        var shared: String?
    }

    var store: String
    var reason: String
    /// Which secret keys the store, and why (libsecret's file: the Secret portal or a passphrase); `nil` for other stores.
    var keySource: String?
    var sync: Sync
    var sessionBus: Bus
    var unlockPrompt: Prompt
    var file: File
    /// libsecret's keyring file, when the libsecret-file store is selected: where it is and who may read it.
    var libsecretFile: File?
    var libgcrypt: String
    /// The etcd members' health and the cluster's member count, when the etcd store is selected.
    var etcd: EtcdHealth?

    /// - Parameters:
    ///   - selection: the store the options select, as the selection reports its kind.
    ///   - sync: whether a shared store holds the records with the sync flag, and why.
    ///   - etcd: the etcd store's settings when the selection or the shared store is etcd, for its members' health.
    static func gather(
        _ configuration: KeyringConfiguration, selection: StoreSelection,
        sync: SyncSetting = SyncSetting(store: nil, reason: "no shared store is set"), etcd: EtcdConfiguration? = nil
    ) throws -> DoctorReport {
        let probe = SecretServiceStore.probe(timeout: configuration.timeout, environment: configuration.environment)
        let bus: Bus
        switch probe {
        case .available:
            let store = try? SecretServiceStore(
                timeout: configuration.timeout, environment: configuration.environment,
                collection: configuration.requestedCollection(), sessionFallback: configuration.requestedSessionFallback())
            let inUse = try? store?.collectionInUse()
            let locked = inUse?.path == nil ? nil : try? store?.isLocked()
            let owner = SecretServiceStore.owner(timeout: configuration.timeout, environment: configuration.environment)
            bus = Bus(
                answers: true, secretService: true, detail: probe.description, collectionLocked: locked,
                owner: owner?.description,
                collection: inUse?.path, collectionReason: inUse?.reason,
                collectionNamed: (try? configuration.requestedCollection()) != nil
            )
        case .noDaemon:
            bus = Bus(answers: true, secretService: false, detail: probe.description)
        case .noBus:
            bus = Bus(answers: false, secretService: false, detail: probe.description)
        }
        let location = try EncryptedFileStore.inspect(configuration.fileURL)
        // Its permissions are found as the encrypted file's are; its header (another format) only for the unlocked key.
        let libsecretFile = try (selection.kind == .libsecretFile ? configuration.resolvedLibsecretFileURL : nil).map {
            let found = try EncryptedFileStore.inspect($0)
            let unlocked =
                found.exists && !selection.keyedByPortal ? (try? LibsecretFileStore.unlockedUntil(url: $0)) ?? nil : nil
            return File(
                path: found.path, exists: found.exists, mode: found.filePermissions.map(octal),
                folderMode: found.folderPermissions.map(octal), problem: found.permissionProblem,
                unlockedUntil: unlocked?.ISO8601Format())
        }
        let health = etcd.map(EtcdHealth.check)
        var halves = Sync(enabled: sync.isOn, reason: sync.reason, store: sync.store?.rawValue)
        if sync.isOn {
            // The local half: the store selected, as far as doctor can tell without a passphrase.
            let localProblem =
                selection.kind == .secretService && !bus.secretService
                ? bus.detail : selection.kind == .file ? location.permissionProblem : nil
            halves.local = localProblem.map { "down: \($0)" } ?? "up"
            halves.shared =
                health.map { $0.servesReads ? "up" : "down: \($0.readProblem ?? "it serves no read")" }
                ?? "unknown (not etcd)"
        }
        return DoctorReport(
            store: selection.kind.rawValue,
            reason: selection.reason,
            keySource: selection.keySource,
            sync: halves,
            sessionBus: bus,
            unlockPrompt: Prompt(
                canShow: SecretServiceStore.canShowPrompt(environment: configuration.environment),
                timeoutSeconds: try configuration.requestedPromptTimeout().inSeconds
            ),
            file: File(
                path: location.path,
                exists: location.exists,
                mode: location.filePermissions.map(octal),
                folderMode: location.folderPermissions.map(octal),
                problem: location.permissionProblem,
                keyDerivation: location.keyDerivation,
                keyDerivationProblem: location.keyDerivationProblem,
                unlockedUntil: location.exists
                    ? (try? EncryptedFileStore.unlockedUntil(url: configuration.fileURL))?.map { $0.ISO8601Format() } : nil
            ),
            libsecretFile: libsecretFile,
            libgcrypt: EncryptedFileStore.libgcryptVersion,
            etcd: health
        )
    }

    /// The report as a person reads it, one fact a line.
    var lines: [String] {
        let locked = sessionBus.collectionLocked.map { $0 ? "locked" : "unlocked" } ?? "unknown"
        let report =
            [
                "store:            \(store) (\(reason))",
                "sync:             "
                    + (sync.enabled
                        ? "on: records with the sync flag live in \(sync.store ?? "?"), the others here (\(sync.reason))"
                        : "off (\(sync.reason))"),
            ] + syncLines + [
                "session bus:      \(sessionBus.answers ? "answers" : "does not answer")",
                "secret service:   \(sessionBus.secretService ? "available, \(sessionBus.collectionNamed ? "collection" : "default collection") \(locked)" : "not available") (\(sessionBus.detail))",
                "service owner:    \(sessionBus.owner ?? "none")",
            ] + collectionLines + [
                "unlock prompt:    "
                    + (unlockPrompt.canShow
                        ? "can be shown (a display is set); waits up to \(seconds(unlockPrompt.timeoutSeconds)) s for you"
                        : "cannot be shown (neither DISPLAY nor WAYLAND_DISPLAY is set): a locked keyring cannot ask for its password"),
                "file:             \(file.path)",
                "file permissions: " + (file.exists ? "\(file.mode ?? "?") in a \(file.folderMode ?? "?") folder" : "no file yet")
                    + (file.problem.map { " — unsafe: \($0)" } ?? ""),
                "key derivation:   " + (file.keyDerivation ?? (file.exists ? "unknown" : "no file yet"))
                    + (file.keyDerivationProblem.map { " — warning: \($0)" } ?? ""),
                "unlocked key:     " + Self.unlockedKeyText(file.unlockedUntil),
            ] + libsecretFileLines + [
                "libgcrypt:        \(libgcrypt)"
            ] + etcdLines
        guard let keySource else { return report }
        return [report[0], "key source:       \(keySource)"] + report.dropFirst()
    }

    /// Which half of a two-store keyring is down, when sync is on: the local store (device-only
    /// records) and the shared one (synced records) fail apart.
    private var syncLines: [String] {
        guard sync.enabled, let local = sync.local, let shared = sync.shared else { return [] }
        return [
            "local store:      \(store) \(local)",
            "shared store:     \(sync.store ?? "?") \(shared)",
        ]
    }

    /// The collection line, when the Secret Service answers.
    private var collectionLines: [String] {
        guard sessionBus.secretService else { return [] }
        let reason = sessionBus.collectionReason.map { " (\($0))" } ?? ""
        return ["collection:       " + (sessionBus.collection ?? "none") + reason]
    }

    /// Whether `swift-keyring unlock` kept a file's key in the session keyring, and until when.
    private static func unlockedKeyText(_ until: String?) -> String {
        guard let until else { return "none (each process needs the passphrase)" }
        return "in use, kept in the session keyring until \(until) (swift-keyring lock forgets it)"
    }

    private var libsecretFileLines: [String] {
        guard let file = libsecretFile else { return [] }
        return [
            "libsecret file:   \(file.path)",
            "its permissions:  " + (file.exists ? "\(file.mode ?? "?") in a \(file.folderMode ?? "?") folder" : "no file yet")
                + (file.problem.map { " — unsafe: \($0)" } ?? ""),
            "its unlocked key: "
                + (keySource?.hasPrefix("the Secret portal") == true
                    ? "none (the Secret portal gives the key; nothing to unlock)" : Self.unlockedKeyText(file.unlockedUntil)),
        ]
    }

    private var etcdLines: [String] {
        guard let etcd else { return [] }
        let members = etcd.members.map { member in
            "etcd endpoint:    \(member.endpoint) "
                + (member.healthy ? "healthy, \(member.detail)" : "unhealthy: \(member.detail)")
                + (member.isLeader ? ", leader" : "")
        }
        return members + ["etcd members:     " + (etcd.memberCount.map(String.init) ?? "unknown (no member answered)")]
            + ["etcd reads:       " + (etcd.servesReads ? "served" : "not served: \(etcd.readProblem ?? "?")")]
            + ["etcd proxy:       " + (etcd.proxy ?? "none")]
    }
}

/// `120`, or `2.5`: whole seconds without a fraction.
private func seconds(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
}

private func octal(_ mode: UInt16) -> String {
    "0" + String(mode, radix: 8)
}
