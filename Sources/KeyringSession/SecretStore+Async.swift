import Foundation
import Keyring

/// The async face of ``SecretStore``: the same calls, through the keyring's async
/// face, so the blocking work runs on the library's own threads and a cancelled
/// task throws `CancellationError` at once (see `Keyring`'s async calls).
extension SecretStore {
    /// The secret under `key` as text, or `nil`; the async face of `string(forKey:)`.
    /// - Throws: `KeyringError.invalidRecord` naming `secret` when the stored bytes are not UTF-8 text,
    ///   a keyring error, or `CancellationError`.
    public func string(forKey key: String) async throws -> String? {
        guard let data = try await data(forKey: key) else { return nil }
        return try text(of: data, key: key)
    }

    /// The secret under `key` as bytes, or `nil`; the async face of `data(forKey:)`.
    public func data(forKey key: String) async throws -> Data? {
        try await keyring.secret(forKey: try keyringKey(key))
    }

    /// Stores `value` under `key`; the async face of `set(_:forKey:)`.
    public func set(_ value: String, forKey key: String) async throws {
        try await set(Data(value.utf8), forKey: key)
    }

    /// Stores `value` under `key`, any bytes; the async face of `set(_:forKey:)`.
    public func set(_ value: Data, forKey key: String) async throws {
        try await keyring.setSecret(value, forKey: try keyringKey(key))
    }

    /// Removes the secret under `key`; the async face of `remove(forKey:)`.
    /// - Returns: `true` when one was removed, `false` when there was none.
    @discardableResult
    public func remove(forKey key: String) async throws -> Bool {
        try await keyring.removeSecret(forKey: try keyringKey(key))
    }

    /// Removes every secret of this account; the async face of `removeAll()`.
    /// - Returns: how many were removed.
    /// - Throws: a keyring error, or `CancellationError` (some may be removed then).
    @discardableResult
    public func removeAll() async throws -> Int {
        // The sync loop, in one turn of the keyring's queue rather than one per key.
        try await keyring.executor.run { try self.removeAll() }
    }

    /// This account's keys, sorted; the async face of `allKeys()`.
    public func allKeys() async throws -> [String] {
        accountKeys(in: try await keyring.secretKeys())
    }
}
