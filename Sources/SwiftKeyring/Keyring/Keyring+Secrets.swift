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
    ///
    /// On a two-store keyring (``syncStore``) `sync: true` puts the secret in the shared
    /// store, for every host; without it the secret stays on this machine. Setting a key
    /// again with the other choice moves it.
    /// - Parameters:
    ///   - secret: the bytes.
    ///   - key: the secret's key.
    ///   - sync: whether the secret lives in the shared store; ignored without one.
    /// - Throws: ``KeyringError/invalidRecord(field:reason:)`` for an empty key, one with a NUL character, or a secret over 16 MiB;
    ///   ``KeyringError/Code/serviceUnavailable`` when `sync` is asked and the shared store is down (nothing is stored then).
    public func setSecret(_ secret: Data, forKey key: String, sync: Bool = false) throws {
        let id = try recordID(key, .secret)
        try RecordValidation.checkSecret(secret)
        var record = StoredRecord(id: id, metadata: RecordMetadata(syncEnabled: sync), secret: Array(secret))
        defer { record.secret.wipe() }  // our copy of the bytes, once the store has sealed or copied them
        let place = try write(record, call: startCall())
        logger.debug("stored secret", metadata: ["service": "\(service)", "key": "\(key)", "place": "\(place)"])
    }

    /// The secret stored under `key`, or `nil` when there is none.
    public func secret(forKey key: String) throws -> Data? {
        let id = try recordID(key, .secret)
        return Self.secretData(taking: try readRecord(id, call: startCall()))
    }

    /// Removes the secret stored under `key`; `false` when there was none.
    @discardableResult
    public func removeSecret(forKey key: String) throws -> Bool {
        let id = try recordID(key, .secret)
        return try removeEverywhere(id, call: startCall())
    }

    /// The keys of this service's secrets, sorted; on a two-store keyring, of both stores.
    public func secretKeys() throws -> [String] {
        try mergedSummaries(kind: .secret, place: nil, call: startCall()).map(\.summary.id.key).sorted()
    }
}
