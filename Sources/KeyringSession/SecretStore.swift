import Foundation
import KeyringValidation
import Logging
import SwiftKeyring

/// One account's secrets (tokens, API keys, any bytes) by key, in a keyring.
///
/// The secrets are `kind=secret` records of the keyring's service, under keys
/// scoped to the account, so accounts never see each other's secrets and
/// `removeAll()` takes this account's only.
///
/// ```swift
/// let secrets = try SecretStore(keyring: keyring, account: "alice@example.com")
/// try secrets.set("ghp_…", forKey: "github-token")     // the careful path: throws why
/// let token = try secrets.string(forKey: "github-token")
/// secrets["refresh-token"] = newRefreshToken            // the quick path
/// try secrets.removeAll()
/// ```
public struct SecretStore: Sendable {
    /// Where the secrets are kept.
    public let keyring: Keyring
    /// The account the secrets belong to.
    public let account: String

    let prefix: String
    private let logger: Logger

    private static let accountRules = Validator<String>()
        .field("account", \.self, .required(message: .reason("must not be empty")))
    private static let keyRules = Validator<String>()
        .field("key", \.self, .required(message: .reason("must not be empty")))

    /// Opens `account`'s secrets in `keyring`.
    /// - Parameters:
    ///   - keyring: where the secrets are kept.
    ///   - account: whose secrets these are; must not be empty.
    ///   - logger: where the quick path (the subscripts) logs the errors it swallows, naming the
    ///     account and key, never the value; `nil` means the keyring's `logger`.
    /// - Throws: `KeyringError.invalidRecord` naming `account` when it is empty.
    public init(keyring: Keyring, account: String, logger: Logger? = nil) throws {
        try Self.check(account, with: Self.accountRules)
        self.keyring = keyring
        self.logger = logger ?? keyring.logger
        self.account = account
        self.prefix = SecretKeys.accountPrefix(account)
    }

    private static func check(_ value: String, with rules: Validator<String>) throws {
        if let failure = rules.validate(value).first { throw KeyringError(failure) }
    }

    func keyringKey(_ key: String) throws -> String {
        try Self.check(key, with: Self.keyRules)
        return prefix + key
    }

    // MARK: The careful path

    /// The secret under `key` as text, or `nil` when there is none.
    /// - Throws: `KeyringError.invalidRecord` naming `secret` when the stored bytes are not UTF-8 text, or a keyring error.
    public func string(forKey key: String) throws -> String? {
        guard let data = try data(forKey: key) else { return nil }
        return try text(of: data, key: key)
    }

    /// `data` as text, or the error that says it is not.
    func text(of data: Data, key: String) throws -> String {
        guard let text = String(validating: data, as: UTF8.self) else {
            throw KeyringError.invalidRecord(
                field: "secret", reason: "under the key \"\(key)\" is not UTF-8 text; read it with data(forKey:)")
        }
        return text
    }

    /// The secret under `key` as bytes, or `nil` when there is none.
    /// - Throws: a keyring error.
    public func data(forKey key: String) throws -> Data? {
        try keyring.secret(forKey: try keyringKey(key))
    }

    /// Stores `value` under `key`, replacing what was there.
    /// - Throws: `KeyringError.invalidRecord` for an empty key or a value over 16 MiB, or a keyring error;
    ///   the old value is kept then.
    public func set(_ value: String, forKey key: String) throws {
        try set(Data(value.utf8), forKey: key)
    }

    /// Stores `value` under `key`, replacing what was there. Any bytes round-trip.
    /// - Throws: `KeyringError.invalidRecord` for an empty key or a value over 16 MiB, or a keyring error;
    ///   the old value is kept then.
    public func set(_ value: Data, forKey key: String) throws {
        try keyring.setSecret(value, forKey: try keyringKey(key))
    }

    /// Removes the secret under `key`.
    /// - Returns: `true` when one was removed, `false` when there was none.
    @discardableResult
    public func remove(forKey key: String) throws -> Bool {
        try keyring.removeSecret(forKey: try keyringKey(key))
    }

    /// Removes every secret of this account, and nothing of other accounts or other services.
    /// - Returns: how many were removed.
    @discardableResult
    public func removeAll() throws -> Int {
        var removed = 0
        for key in try allKeys() where try keyring.removeSecret(forKey: prefix + key) {
            removed += 1
        }
        return removed
    }

    /// This account's keys, sorted.
    public func allKeys() throws -> [String] {
        accountKeys(in: try keyring.secretKeys())
    }

    /// This account's keys among the keyring's secret keys, without the prefix, sorted.
    func accountKeys(in keyringKeys: [String]) -> [String] {
        keyringKeys
            .filter { $0.hasPrefix(prefix) }
            .map { String($0.dropFirst(prefix.count)) }
            .sorted()
    }

    // MARK: The quick path

    /// The secret under `key` as text; setting `nil` removes it.
    ///
    /// On error, reading gives `nil` and writing does nothing; both log the error
    /// (never the value) at `error` level. Use `string(forKey:)` and `set(_:forKey:)` to learn why.
    public subscript(key: String) -> String? {
        get { quietly("read", key) { try string(forKey: key) } ?? nil }
        nonmutating set { quietly("write", key) { try store(newValue.map { Data($0.utf8) }, forKey: key) } }
    }

    /// The secret under `key` as bytes; setting `nil` removes it.
    ///
    /// On error, reading gives `nil` and writing does nothing; both log the error
    /// (never the value) at `error` level. Use `data(forKey:)` and `set(_:forKey:)` to learn why.
    public subscript(data key: String) -> Data? {
        get { quietly("read", key) { try data(forKey: key) } ?? nil }
        nonmutating set { quietly("write", key) { try store(newValue, forKey: key) } }
    }

    private func store(_ value: Data?, forKey key: String) throws {
        if let value {
            try set(value, forKey: key)
        } else {
            try remove(forKey: key)
        }
    }

    private func quietly<Result>(_ action: String, _ key: String, _ body: () throws -> Result) -> Result? {
        do {
            return try body()
        } catch {
            logger.info(
                "secret store \(action) failed", metadata: ["account": "\(account)", "key": "\(key)", "error": "\(error)"])
            return nil
        }
    }
}
