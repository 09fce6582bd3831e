import Foundation
import Keyring
import Logging

/// The async face of ``Session``: the same calls, for async code.
///
/// Secure properties and the default credentials go through the keyring's async
/// face; the state file is read and written on the session's own
/// `BlockingExecutor`. So no cooperative thread waits on D-Bus, a prompt or a
/// file lock, and cancelling the task throws `CancellationError` at once (see
/// `Keyring`'s async calls for what is left behind). Status changes reach
/// observers once each, in order, whichever face made them.
extension Session {
    // MARK: Status

    /// Opens the session of `keyring`'s service and reads its current status; the async
    /// face of `init(keyring:requiredProperties:stateDirectory:environment:lockTimeout:logger:)`,
    /// whose reads (the keyring, which may wait for an unlock prompt, and the state file)
    /// run off Swift concurrency's cooperative threads.
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
        publish(try await computeStatus(), ticket: ticket)
    }

    /// The status now, from the stored values; the async face of `status`.
    /// - Throws: a keyring error, `KeyringError.damaged` naming an unreadable state file, or `CancellationError`.
    public func currentStatus() async throws -> LoginStatus {
        let ticket = takeTicket()
        let now = try await computeStatus()
        publish(now, ticket: ticket)
        return now
    }

    /// The required properties that have no value now; the async face of `missingRequiredProperties()`.
    public func missingRequiredProperties() async throws -> [Property] {
        var stateValues: [String: JSONValue]?
        var missing: [Property] = []
        for property in requiredProperties {
            if property.isSecure {
                if try await keyring.secret(forKey: SecretKeys.property(property.rawValue)) == nil {
                    missing.append(property)
                }
                continue
            }
            if stateValues == nil { stateValues = try await readStateFile() }
            if Self.isEmpty(stateValues?[property.rawValue]) { missing.append(property) }
        }
        return missing
    }

    /// Confirms the login once the app has saved the required properties; the async face of `markLoggedIn()`.
    /// - Throws: `KeyringError.invalidRecord` naming the first required property with no value.
    public func markLoggedIn() async throws {
        try checkRequiredPropertiesExist()
        let ticket = takeTicket()
        try confirmLogin(missing: try await missingRequiredProperties(), ticket: ticket)
    }

    /// Forgets every property that is not persisted and the default credentials; the async face of `logout()`.
    ///
    /// Every removal is tried even when one fails. Cancelling the task does not cut a
    /// logout short, since half a logout could leave a token behind: the call returns
    /// once every removal was tried, each bounded by its store's timeout.
    /// - Throws: the first error met; what could be removed is removed.
    public func logout() async throws {
        try await Task { try await self.removeForgottenValues() }.value
    }

    /// Logout's removals and the status change, in a task of their own that the caller's cancellation does not reach.
    private func removeForgottenValues() async throws {
        var failures: [any Error] = []
        for property in Self.forgottenAtLogout where property.isSecure {
            do {
                try await keyring.removeSecret(forKey: SecretKeys.property(property.rawValue))
            } catch {
                failures.append(error)
            }
        }
        if Self.forgottenAtLogout.contains(where: { !$0.isSecure }) {
            do {
                try await stateFileIO.run { [stateFile] in try stateFile.update(Self.forgetPlainProperties) }
            } catch {
                failures.append(error)
            }
        }
        do {
            try await keyring.removeDefault()
        } catch {
            failures.append(error)
        }
        try finishLogout(failures)
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
        switch try Self.change(value, for: property) {
        case .secret(let key, let bytes?):
            try await keyring.setSecret(bytes, forKey: key)
        case .secret(let key, nil):
            try await keyring.removeSecret(forKey: key)
        case .plain(let name, let json):
            try await stateFileIO.run { [stateFile] in try stateFile.update { $0[name] = json } }
        }
        logSaved(property, removed: value == nil)
        let ticket = takeTicket()
        do {
            publish(try await computeStatus(), ticket: ticket)
        } catch is CancellationError {
            // Saved; the next reading of the status tells observers.
        } catch {
            logUnknownStatus(error)
        }
    }

    /// Removes `property`'s value; the async face of `remove(_:)`.
    public func remove(_ property: Property) async throws {
        try await set(String?.none, for: property)
    }

    /// The value of `property` read as a `Value`, or `nil`; the async face of `value(_:for:)`.
    public func value<Value: Decodable>(_ type: Value.Type = Value.self, for property: Property) async throws -> Value? {
        if property.isSecure {
            let bytes = try await keyring.secret(forKey: SecretKeys.property(property.rawValue))
            return try Self.decode(Value.self, secret: bytes, of: property)
        }
        return try Self.decode(Value.self, json: try await readStateFile()[property.rawValue], of: property)
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

    // MARK: Helpers

    private func readStateFile() async throws -> [String: JSONValue] {
        try await stateFileIO.run { [stateFile] in try stateFile.read() }
    }

    private func computeStatus() async throws -> LoginStatus {
        status(missing: requiredProperties.isEmpty ? [] : try await missingRequiredProperties())
    }
}
