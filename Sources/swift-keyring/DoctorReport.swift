import Foundation
import Keyring

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
        /// How the file's key is made, read from its header without the passphrase.
        var keyDerivation: String?
        /// Why that is a concern (weaker than the default, or a header that would be refused).
        var keyDerivationProblem: String?
    }

    var store: String
    var reason: String
    var sessionBus: Bus
    var file: File
    var libsecret: String
    var libgcrypt: String

    static func gather(_ configuration: KeyringConfiguration) throws -> DoctorReport {
        let selection = try Keyring.selection(for: configuration)
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
            store: selection.backend.rawValue,
            reason: selection.reason,
            sessionBus: bus,
            file: File(
                path: location.path,
                exists: location.exists,
                mode: location.filePermissions.map(octal),
                folderMode: location.folderPermissions.map(octal),
                problem: location.permissionProblem,
                keyDerivation: location.keyDerivation,
                keyDerivationProblem: location.keyDerivationProblem
            ),
            libsecret: SecretServiceStore.libsecretVersion,
            libgcrypt: EncryptedFileStore.libgcryptVersion
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
            "key derivation:   " + (file.keyDerivation ?? (file.exists ? "unknown" : "no file yet"))
                + (file.keyDerivationProblem.map { " — warning: \($0)" } ?? ""),
            "libsecret:        \(libsecret)",
            "libgcrypt:        \(libgcrypt)",
        ]
    }
}

private func octal(_ mode: UInt16) -> String {
    "0" + String(mode, radix: 8)
}
