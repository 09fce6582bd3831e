import KeyringCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Generic secrets: arbitrary bytes under a key, kept beside the credentials
/// with `kind` = `secret`, so the two never collide. `SecretStore` and the
/// session layer build on these calls.
extension Keyring {
    /// Stores `secret` under `key`, replacing what was there. Any bytes round-trip.
    /// - Throws: ``KeyringError/invalidRecord(field:reason:)`` for an empty key, one with a NUL character, or a secret over 16 MiB.
    public func setSecret(_ secret: Data, forKey key: String) throws {
        let id = try recordID(key, .secret)
        try RecordValidation.checkSecret(secret)
        var record = StoredRecord(id: id, metadata: RecordMetadata(), secret: Array(secret))
        defer { record.secret.wipe() }  // our copy of the bytes, once the store has sealed or copied them
        try fromStore { try store.save(record, call: startCall()) }
        logger.debug("stored secret", metadata: ["service": "\(service)", "key": "\(key)"])
    }

    /// The secret stored under `key`, or `nil` when there is none.
    public func secret(forKey key: String) throws -> Data? {
        let id = try recordID(key, .secret)
        return Self.secretData(taking: try fromStore { try store.record(for: id, call: startCall()) })
    }

    /// Removes the secret stored under `key`; `false` when there was none.
    @discardableResult
    public func removeSecret(forKey key: String) throws -> Bool {
        let id = try recordID(key, .secret)
        return try fromStore { try store.removeRecord(for: id, call: startCall()) }
    }

    /// The keys of this service's secrets, sorted.
    public func secretKeys() throws -> [String] {
        try fromStore { try store.summaries(service: service, kind: .secret, call: startCall()) }.map(\.id.key).sorted()
    }
}
