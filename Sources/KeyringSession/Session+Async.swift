import Foundation
import Logging
import SwiftKeyring

/// The async face of ``Session``: the same calls, for async code.
///
/// Each runs the synchronous call on the executor of the session's ``Keyring``, the
/// one serial queue of the library's own that the keyring's async calls use too.
/// So no cooperative thread waits on D-Bus, a prompt or a file lock; a session's
/// async calls and its keyring's (and any ``SecretStore``'s on it) run one at a time,
/// in the order they were made; and cancelling the task throws `CancellationError`
/// at once (see `Keyring`'s async calls for what is left behind). Status changes
/// reach observers once each, in order, whichever face made them.
extension Session {
    // MARK: Status

    /// Opens the session of `keyring`'s service and reads its current status; the async
    /// face of `init(keyring:requiredProperties:stateDirectory:environment:lockTimeout:logger:)`,
    /// whose reads (the keyring, which may wait for an unlock prompt, and the state file)
    /// run on the keyring's executor.
    /// - Throws: as the synchronous initialiser, or `CancellationError`.
    public convenience init(
        keyring: Keyring,
        requiredProperties: [Property],
        stateDirectory: URL? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        lockTimeout: Duration = .seconds(5),
        logger: Logger? = nil
    ) async throws {
        try self.init(
            opening: keyring, requiredProperties: requiredProperties, stateDirectory: stateDirectory,
            environment: environment, lockTimeout: lockTimeout, logger: logger)
        let ticket = takeTicket()
        let status = try await keyring.executor.run { [self] in try computeStatus() }
        publish(status, ticket: ticket)
    }

    /// The status now, from the stored values; the async face of `status`.
    /// - Throws: a keyring error, `KeyringError.damaged` naming an unreadable state file, or `CancellationError`.
    public func currentStatus() async throws -> LoginStatus {
        try await keyring.executor.run { try self.status }
    }

    /// The required properties that have no value now; the async face of `missingRequiredProperties()`.
    public func missingRequiredProperties() async throws -> [Property] {
        try await keyring.executor.run { try self.missingRequiredProperties() }
    }

    /// Confirms the login once the app has saved the required properties; the async face of `markLoggedIn()`.
    /// - Throws: `KeyringError.invalidRecord` naming the first required property with no value.
    public func markLoggedIn() async throws {
        try await keyring.executor.run { try self.markLoggedIn() }
    }

    /// Forgets every property that is not persisted and the default credentials; the async face of `logout()`.
    ///
    /// Every removal is tried even when one fails. Cancelling the task does not cut a
    /// logout short, since half a logout could leave a token behind: the call returns
    /// once every removal was tried, each bounded by its store's timeout.
    /// - Throws: the first error met; what could be removed is removed.
    public func logout() async throws {
        // A task of its own, which the caller's cancellation does not reach.
        try await Task { try await self.keyring.executor.run { try self.logout() } }.value
    }

    /// The keyring's default credentials; the async face of `defaultCredentials()`.
    public func defaultCredentials() async throws -> Credentials? {
        try await keyring.defaultCredentials()
    }

    // MARK: Values

    /// Saves `value` for `property`, replacing the old one (`nil` removes it); the async face of `set(_:for:)`.
    /// - Throws: `KeyringError.invalidRecord` naming the property when the value cannot be encoded,
    ///   a keyring or state file error (the old value is kept then), or `CancellationError`
    ///   (the old value or the new one is kept then).
    public func set<Value: Encodable>(_ value: Value?, for property: Property) async throws {
        // Encoded here, since a `Value` need not be `Sendable`; written on the executor.
        let change = try Self.change(value, for: property)
        try await keyring.executor.run { try self.save(change, of: property) }
    }

    /// Removes `property`'s value; the async face of `remove(_:)`.
    public func remove(_ property: Property) async throws {
        try await set(String?.none, for: property)
    }

    /// The value of `property` read as a `Value`, or `nil`; the async face of `value(_:for:)`.
    public func value<Value: Decodable>(_ type: Value.Type = Value.self, for property: Property) async throws -> Value? {
        // Read on the executor, decoded here, since a `Value` need not be `Sendable`.
        let stored = try await keyring.executor.run { try self.storedValue(of: property) }
        return try Self.decode(Value.self, stored: stored, of: property)
    }

    /// The text value of `property`, or `nil`; the async face of `string(for:)`.
    public func string(for property: Property) async throws -> String? {
        try await value(String.self, for: property)
    }

    /// The data value of `property`, or `nil`; the async face of `data(for:)`.
    public func data(for property: Property) async throws -> Data? {
        try await value(Data.self, for: property)
    }

    /// The Boolean value of `property`, or `nil`; the async face of `bool(for:)`.
    public func bool(for property: Property) async throws -> Bool? {
        try await value(Bool.self, for: property)
    }

    /// The integer value of `property`, or `nil`; the async face of `int(for:)`.
    public func int(for property: Property) async throws -> Int? {
        try await value(Int.self, for: property)
    }

    /// The date value of `property`, or `nil`; the async face of `date(for:)`.
    public func date(for property: Property) async throws -> Date? {
        try await value(Date.self, for: property)
    }
}
