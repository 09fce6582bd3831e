import Foundation
import Keyring
import KeyringEtcd

/// What `doctor` found; never a secret, since it opens no store that needs one.
struct DoctorReport: Encodable {
    struct Bus: Encodable {
        var answers: Bool
        var secretService: Bool
        var detail: String
        /// Whether the default collection is locked; `nil` when that could not be asked.
        var collectionLocked: Bool?
    }

    struct File: Encodable {
        var path: String
        var exists: Bool
        var mode: String?
        var folderMode: String?
        var problem: String?
    }

    var store: String
    var reason: String
    var sessionBus: Bus
    var file: File
    var libsecret: String
    var libgcrypt: String
    /// The etcd members' health and the cluster's member count, when the etcd store is selected.
    var etcd: EtcdHealth?

    /// - Parameter etcd: the etcd store's settings when `--backend etcd` or `SWIFT_KEYRING_BACKEND=etcd`
    ///   selects it: `Keyring`'s own selection does not know that store.
    static func gather(_ configuration: KeyringConfiguration, etcd: EtcdConfiguration? = nil) throws -> DoctorReport {
        let selection = try etcd.map { StoreSelection(backend: .memory, reason: "asked for; prefix \($0.prefix)") }
            ?? Keyring.selection(for: configuration)
        let probe = SecretServiceStore.probe(timeout: configuration.timeout, environment: configuration.environment)
        let bus: Bus
        switch probe {
        case .available:
            let locked = try? SecretServiceStore(timeout: configuration.timeout, environment: configuration.environment).isLocked()
            bus = Bus(answers: true, secretService: true, detail: probe.description, collectionLocked: locked)
        case .noDaemon:
            bus = Bus(answers: true, secretService: false, detail: probe.description)
        case .noBus:
            bus = Bus(answers: false, secretService: false, detail: probe.description)
        }
        let location = try EncryptedFileStore.inspect(configuration.fileURL)
        return DoctorReport(
            store: etcd == nil ? selection.backend.rawValue : "etcd",
            reason: selection.reason,
            sessionBus: bus,
            file: File(
                path: location.path,
                exists: location.exists,
                mode: location.filePermissions.map(octal),
                folderMode: location.folderPermissions.map(octal),
                problem: location.permissionProblem
            ),
            libsecret: SecretServiceStore.libsecretVersion,
            libgcrypt: EncryptedFileStore.libgcryptVersion,
            etcd: etcd.map(EtcdHealth.check)
        )
    }

    /// The report as a person reads it, one fact a line.
    var lines: [String] {
        let locked = sessionBus.collectionLocked.map { $0 ? "locked" : "unlocked" } ?? "unknown"
        return [
            "store:            \(store) (\(reason))",
            "session bus:      \(sessionBus.answers ? "answers" : "does not answer")",
            "secret service:   \(sessionBus.secretService ? "available, default collection \(locked)" : "not available") (\(sessionBus.detail))",
            "file:             \(file.path)",
            "file permissions: " + (file.exists ? "\(file.mode ?? "?") in a \(file.folderMode ?? "?") folder" : "no file yet")
                + (file.problem.map { " — unsafe: \($0)" } ?? ""),
            "libsecret:        \(libsecret)",
            "libgcrypt:        \(libgcrypt)",
        ] + etcdLines
    }

    private var etcdLines: [String] {
        guard let etcd else { return [] }
        let members = etcd.members.map { member in
            "etcd endpoint:    \(member.endpoint) " + (member.healthy ? "healthy, \(member.detail)" : "unhealthy: \(member.detail)")
                + (member.isLeader ? ", leader" : "")
        }
        return members + ["etcd members:     " + (etcd.memberCount.map(String.init) ?? "unknown (no member answered)")]
    }
}

private func octal(_ mode: UInt16) -> String {
    "0" + String(mode, radix: 8)
}
