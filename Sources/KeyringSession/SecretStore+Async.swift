import Foundation
import SwiftKeyring

/// The async face of ``SecretStore``: the same calls, each the synchronous call run on
/// the executor of the store's ``Keyring``, as the keyring's own async calls are. So
/// the blocking work runs on the library's own threads, calls through one keyring run
/// in the order they were made, and a cancelled task throws `CancellationError` at once
/// (see `Keyring`'s async calls).
extension SecretStore {
    /// The secret under `key` as text, or `nil`; the async face of `string(forKey:)`.
    /// - Throws: `KeyringError.invalidRecord` naming `secret` when the stored bytes are not UTF-8 text,
    ///   a keyring error, or `CancellationError`.
    public func string(forKey key: String) async throws -> String? {
        try await keyring.executor.run { try self.string(forKey: key) }
    }

    /// The secret under `key` as bytes, or `nil`; the async face of `data(forKey:)`.
    public func data(forKey key: String) async throws -> Data? {
        try await keyring.executor.run { try self.data(forKey: key) }
    }

    /// Stores `value` under `key`; the async face of `set(_:forKey:)`.
    public func set(_ value: String, forKey key: String) async throws {
        try await keyring.executor.run { try self.set(value, forKey: key) }
    }

    /// Stores `value` under `key`, any bytes; the async face of `set(_:forKey:)`.
    public func set(_ value: Data, forKey key: String) async throws {
        try await keyring.executor.run { try self.set(value, forKey: key) }
    }

    /// Removes the secret under `key`; the async face of `remove(forKey:)`.
    /// - Returns: `true` when one was removed, `false` when there was none.
    @discardableResult
    public func remove(forKey key: String) async throws -> Bool {
        try await keyring.executor.run { try self.remove(forKey: key) }
    }

    /// Removes every secret of this account; the async face of `removeAll()`.
    /// - Returns: how many were removed.
    /// - Throws: a keyring error, or `CancellationError` (some may be removed then).
    @discardableResult
    public func removeAll() async throws -> Int {
        try await keyring.executor.run { try self.removeAll() }
    }

    /// This account's keys, sorted; the async face of `allKeys()`.
    public func allKeys() async throws -> [String] {
        try await keyring.executor.run { try self.allKeys() }
    }
}
