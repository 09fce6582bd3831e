import Foundation
import Logging
import SwiftKeyring
import Synchronization

/// Whether the user is logged in, and the values that make it so.
///
/// A session keeps the app's ``SessionProperty`` values: secure ones as secrets
/// of the keyring's service, the others in a plain JSON state file under
/// `$XDG_STATE_HOME/swift-keyring/<service>/`. The user is logged in when
/// every required property has a value; `logout()` forgets every property that
/// is not persisted, and the keyring's default credentials.
///
/// ```swift
/// let session = try Session<AppProperty>(keyring: keyring, requiredProperties: [.token, .userID])
/// try keyring.setDefault(credentials)                 // what quiet re-authentication will use
/// try session.set(token, for: .token)
/// try session.set(user.id, for: .userID)
/// try session.markLoggedIn()                          // throws naming a missing required property
/// if try session.status == .loggedIn { … }
/// try session.logout()
/// ```
///
/// Every read goes to the keyring and the state file again, so several
/// ``Session``s (in one process or several) on the same service see each other's
/// saves. A session's own changes of status reach its observers once each, in
/// order; a change made by another ``Session`` reaches them when this one next
/// reads or writes. ``Session`` is safe to use from many threads and tasks.
///
/// From async code, call the async overloads of the same names
/// (`try await session.set(token, for: .token)`, `try await session.logout()`):
/// each runs the synchronous call on the keyring's executor, as the keyring's own
/// async calls do, so no cooperative thread waits and a session's calls and its
/// keyring's run one at a time, in the order they were made. No lock is held
/// across I/O: synchronous calls run side by side, and each change of status is
/// published with a ticket taken after the call's writes, so the newest reading
/// wins and observers never see an older one after it.
public final class Session<Property: SessionProperty>: Sendable {
    /// The keyring the secure properties and the default credentials live in.
    public let keyring: Keyring
    /// The properties that must all have a value for the user to count as logged in.
    public let requiredProperties: [Property]
    /// Where the non-secure properties are kept: `state.json` in the session's folder.
    public let stateFileURL: URL

    let stateFile: StateFile
    private let broadcaster = StatusBroadcaster()
    /// The status observers were last told, and the tickets that order the readings of it.
    private let published = Mutex(PublishedStatus())
    let logger: Logger

    /// What observers were last told, by which reading.
    private struct PublishedStatus {
        var status = LoginStatus.loggedOut
        /// The ticket of the reading `status` came from.
        var ticket: UInt64 = 0
        /// The last ticket handed out.
        var lastTicket: UInt64 = 0
    }

    /// Opens the session of `keyring`'s service and reads its current status.
    /// - Parameters:
    ///   - keyring: where secure properties and the default credentials are kept; its service names the session.
    ///   - requiredProperties: the properties that make the user logged in; none of them may be persisted.
    ///     With none, the session is always logged out.
    ///   - stateDirectory: the folder of the state file; when `nil`,
    ///     `$XDG_STATE_HOME/swift-keyring/<service>/` (default `~/.local/state/…`) read from `environment`.
    ///     Like the keyring file's folder, it is made with mode 0700, and an existing one must be yours and 0700.
    ///   - environment: where `XDG_STATE_HOME` and `HOME` are read from.
    ///   - lockTimeout: how long a write waits for another writer of the state file.
    ///   - logger: where status changes, saves and logouts are logged, at debug level (names
    ///     of properties, never values); `nil` means the keyring's `logger`.
    /// - Throws: `KeyringError.invalidConfiguration` naming a required property that is persisted;
    ///   `KeyringError.damaged` naming the state file when it cannot be parsed;
    ///   `KeyringError.insecurePermissions` when the state folder or file is open to others, belongs
    ///   to another user, or is a symbolic link; a keyring error.
    public convenience init(
        keyring: Keyring,
        requiredProperties: [Property],
        stateDirectory: URL? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        lockTimeout: Duration = .seconds(5),
        logger: Logger? = nil
    ) throws {
        try self.init(
            opening: keyring, requiredProperties: requiredProperties, stateDirectory: stateDirectory,
            environment: environment, lockTimeout: lockTimeout, logger: logger)
        let ticket = takeTicket()
        publish(try computeStatus(), ticket: ticket)
    }

    /// Everything `init` does but reading the status, which the sync and async
    /// initialisers each do their own way (the async one off the cooperative threads).
    init(
        opening keyring: Keyring,
        requiredProperties: [Property],
        stateDirectory: URL?,
        environment: [String: String],
        lockTimeout: Duration,
        logger: Logger?
    ) throws {
        if let persisted = requiredProperties.first(where: \.isPersisted) {
            throw KeyringError.invalidConfiguration(
                setting: persisted.rawValue,
                reason: "is required, so it cannot be persisted: logout would leave the user logged in"
            )
        }
        var folder =
            stateDirectory?.absoluteURL.standardizedFileURL.path(percentEncoded: false)
            ?? StateFile.defaultFolder(service: keyring.service, environment: environment)
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        self.keyring = keyring
        self.logger = logger ?? keyring.logger
        self.requiredProperties = requiredProperties
        self.stateFile = StateFile(folder: folder, lockTimeout: lockTimeout)
        self.stateFileURL = URL(filePath: stateFile.path)
    }

    deinit {
        broadcaster.finishAll()
    }

    // MARK: Status

    /// The status now, from the stored values: `.loggedIn` when every required property has one.
    /// - Throws: a keyring error, or `KeyringError.damaged` naming an unreadable state file.
    public var status: LoginStatus {
        get throws {
            let ticket = takeTicket()
            let now = try computeStatus()
            publish(now, ticket: ticket)
            return now
        }
    }

    /// The required properties that have no value now, in the order they were given.
    public func missingRequiredProperties() throws -> [Property] {
        var stateValues: [String: JSONValue]?
        return try requiredProperties.filter { property in
            if property.isSecure {
                return try keyring.secret(forKey: SecretKeys.property(property.rawValue)) == nil
            }
            if stateValues == nil { stateValues = try stateFile.read() }
            return Self.isEmpty(stateValues?[property.rawValue])
        }
    }

    /// Confirms the login once the app has saved the required properties.
    ///
    /// The status follows the stored values, so it is `.loggedIn` as soon as the
    /// last required property is saved; this call is the checked way for login
    /// code to say "done", failing loudly when a value was forgotten.
    /// - Throws: `KeyringError.invalidRecord` naming the first required property with no value
    ///   (`.invalidConfiguration` naming `requiredProperties` when there are none); the status stays `.loggedOut` then.
    public func markLoggedIn() throws {
        try checkRequiredPropertiesExist()
        let ticket = takeTicket()
        try confirmLogin(missing: try missingRequiredProperties(), ticket: ticket)
    }

    /// Throws when there are no required properties, so no login can be confirmed.
    func checkRequiredPropertiesExist() throws {
        guard !requiredProperties.isEmpty else {
            throw KeyringError.invalidConfiguration(
                setting: "requiredProperties", reason: "is empty, so the session is never logged in")
        }
    }

    /// Publishes `.loggedIn` when nothing is `missing`; otherwise throws naming the first missing property.
    func confirmLogin(missing: [Property], ticket: UInt64) throws {
        if let first = missing.first {
            throw KeyringError.invalidRecord(field: first.rawValue, reason: "is required to log in and has no value")
        }
        publish(.loggedIn, ticket: ticket)
    }

    /// Forgets every property that is not persisted (secure or not) and the
    /// keyring's default credentials, keeps the persisted properties, and sets the status to `.loggedOut`.
    ///
    /// Every removal is tried even when one fails, so a damaged state file does
    /// not keep a token in the keyring.
    /// - Throws: the first error met; what could be removed is removed.
    public func logout() throws {
        var failures: [any Error] = []
        for property in Self.forgottenAtLogout where property.isSecure {
            do {
                try keyring.removeSecret(forKey: SecretKeys.property(property.rawValue))
            } catch {
                failures.append(error)
            }
        }
        if Self.forgottenAtLogout.contains(where: { !$0.isSecure }) {
            do {
                try stateFile.update(Self.forgetPlainProperties)
            } catch {
                failures.append(error)
            }
        }
        do {
            try keyring.removeDefault()
        } catch {
            failures.append(error)
        }
        try finishLogout(failures)
    }

    /// The properties logout forgets: every one that is not persisted.
    static var forgottenAtLogout: [Property] {
        Property.allCases.filter { !$0.isPersisted }
    }

    /// Removes the plain properties logout forgets from the state file's values.
    static func forgetPlainProperties(_ values: inout [String: JSONValue]) {
        for property in forgottenAtLogout where !property.isSecure {
            values[property.rawValue] = nil
        }
    }

    /// Publishes `.loggedOut` once logout's removals were tried, then throws the first failure.
    func finishLogout(_ failures: [any Error]) throws {
        publish(.loggedOut, ticket: takeTicket())
        logger.debug("logged out", metadata: ["service": "\(keyring.service)", "failures": "\(failures.count)"])
        if let first = failures.first { throw first }
    }

    /// The keyring's default credentials, read from the keyring each time (the session keeps no copy).
    public func defaultCredentials() throws -> Credentials? {
        try keyring.defaultCredentials()
    }

    // MARK: Observing

    /// The status changes from now on, each once and in order; the current status is `status`.
    ///
    /// Every call makes a new stream for one observer; it ends when the session is released.
    public func statusChanges() -> AsyncStream<LoginStatus> {
        broadcaster.stream()
    }

    /// Calls `handler` with each status change from now on, once and in order, on a background task.
    /// - Returns: the observation; the calls stop when it is cancelled or released.
    public func observeStatus(_ handler: @escaping @Sendable (LoginStatus) -> Void) -> StatusObservation {
        let changes = broadcaster.stream()
        return StatusObservation(
            task: Task {
                for await status in changes { handler(status) }
            })
    }

    // MARK: Values

    /// Saves `value` for `property`, replacing the old one; `nil` removes it.
    ///
    /// Any `Encodable` value: `String`, `Data`, `Bool`, `Int`, `Date`, your own `Codable` types.
    /// Secure properties go to the keyring (text and data as their bytes, the rest as JSON),
    /// the others to the state file as JSON.
    /// - Throws: `KeyringError.invalidRecord` naming the property when the value cannot be encoded,
    ///   a keyring error, or a state file error. The old value is kept then.
    public func set<Value: Encodable>(_ value: Value?, for property: Property) throws {
        try save(try Self.change(value, for: property), of: property)
    }

    /// Writes `change` (made by `change(_:for:)`) and publishes the status it leaves.
    func save(_ change: Change, of property: Property) throws {
        switch change {
        case .secret(let key, let bytes?):
            try keyring.setSecret(bytes, forKey: key)
        case .secret(let key, nil):
            try keyring.removeSecret(forKey: key)
        case .plain(let name, let json):
            try stateFile.update { $0[name] = json }
        }
        logSaved(property, removed: change.removes)
        let ticket = takeTicket()
        do {
            publish(try computeStatus(), ticket: ticket)
        } catch is CancellationError {
            // Saved; the async caller was cancelled, and the next reading of the status tells observers.
        } catch {
            logUnknownStatus(error)
        }
    }

    /// Removes `property`'s value; the same as saving `nil`.
    public func remove(_ property: Property) throws {
        try set(String?.none, for: property)
    }

    /// The value of `property` read as a `Value`, or `nil` when it has none.
    ///
    /// ```swift
    /// let settings: Settings? = try session.value(for: .settings)
    /// let age = try session.value(Int.self, for: .age)
    /// ```
    /// - Throws: `KeyringError.invalidRecord` naming the property when its value is not a `Value`,
    ///   a keyring error, or a state file error.
    public func value<Value: Decodable>(_ type: Value.Type = Value.self, for property: Property) throws -> Value? {
        try Self.decode(Value.self, stored: try storedValue(of: property), of: property)
    }

    /// What is stored for `property`, not yet decoded: the async face reads it on the keyring's executor
    /// and decodes it on the caller's side, as a `Value` need not be `Sendable`.
    func storedValue(of property: Property) throws -> Stored {
        if property.isSecure {
            return .secret(try keyring.secret(forKey: SecretKeys.property(property.rawValue)))
        }
        return .plain(try stateFile.read()[property.rawValue])
    }

    // MARK: Values: encoding and decoding, shared by both faces

    /// Where a saved value goes and in what form.
    enum Change {
        /// A secure property: its keyring key and bytes; `nil` bytes remove it.
        case secret(key: String, bytes: Data?)
        /// A plain property: its name in the state file and JSON value; `nil` removes it.
        case plain(name: String, json: JSONValue?)

        /// Whether the change removes the property's value.
        var removes: Bool {
            switch self {
            case .secret(_, let bytes): bytes == nil
            case .plain(_, let json): json == nil
            }
        }
    }

    /// A property's value as stored, before decoding.
    enum Stored {
        /// A secure property's bytes, `nil` when it has none.
        case secret(Data?)
        /// A plain property's JSON, `nil` when it has none.
        case plain(JSONValue?)
    }

    /// The change that saves `value` for `property`.
    /// - Throws: `KeyringError.invalidRecord` naming the property when the value cannot be encoded.
    static func change<Value: Encodable>(_ value: Value?, for property: Property) throws -> Change {
        do {
            if property.isSecure {
                return .secret(
                    key: SecretKeys.property(property.rawValue), bytes: try value.flatMap { try SecretCoding.bytes(of: $0) })
            }
            let json = try value.map { try JSONValue(encoding: $0) }
            return .plain(name: property.rawValue, json: json == .null ? nil : json)
        } catch {
            throw KeyringError.invalidRecord(field: property.rawValue, reason: "cannot be encoded as JSON")
        }
    }

    /// A property's stored value read as a `Value`.
    static func decode<Value: Decodable>(_ type: Value.Type, stored: Stored, of property: Property) throws -> Value? {
        switch stored {
        case .secret(let bytes): try decode(Value.self, secret: bytes, of: property)
        case .plain(let json): try decode(Value.self, json: json, of: property)
        }
    }

    /// A secure property's stored bytes read as a `Value`.
    static func decode<Value: Decodable>(_ type: Value.Type, secret bytes: Data?, of property: Property) throws -> Value? {
        guard let bytes else { return nil }
        guard let value = SecretCoding.value(Value.self, from: bytes) else { throw mismatch(Value.self, property) }
        return value
    }

    /// A plain property's stored JSON read as a `Value`.
    static func decode<Value: Decodable>(_ type: Value.Type, json: JSONValue?, of property: Property) throws -> Value? {
        guard let json, json != .null else { return nil }
        do {
            return try json.decoded(as: Value.self)
        } catch {
            throw mismatch(Value.self, property)
        }
    }

    private static func mismatch<Value>(_ type: Value.Type, _ property: Property) -> KeyringError {
        .invalidRecord(field: property.rawValue, reason: "holds a value that cannot be read as \(Value.self)")
    }

    /// Whether a plain property's stored value counts as none.
    static func isEmpty(_ json: JSONValue?) -> Bool {
        (json ?? .null) == .null
    }

    func logSaved(_ property: Property, removed: Bool) {
        logger.debug("saved session property", metadata: ["property": "\(property.rawValue)", "removed": "\(removed)"])
    }

    func logUnknownStatus(_ error: any Error) {
        logger.info("session status unknown after a save", metadata: ["error": "\(error)"])
    }

    // MARK: Status bookkeeping

    func computeStatus() throws -> LoginStatus {
        status(missing: requiredProperties.isEmpty ? [] : try missingRequiredProperties())
    }

    /// The status when `missing` required properties have no value.
    func status(missing: [Property]) -> LoginStatus {
        !requiredProperties.isEmpty && missing.isEmpty ? .loggedIn : .loggedOut
    }

    /// A ticket for a reading of the status about to start; take it after the call's writes.
    ///
    /// Tickets order the readings: a reading that started later saw at least the
    /// writes an earlier one saw, so when two race, the later ticket's status is
    /// the one kept and an older reading arriving after it is dropped.
    func takeTicket() -> UInt64 {
        published.withLock { published in
            published.lastTicket += 1
            return published.lastTicket
        }
    }

    /// Tells observers `status` when it is the newest reading and differs from the last one told.
    func publish(_ status: LoginStatus, ticket: UInt64) {
        let changed = published.withLock { published -> Bool in
            guard ticket > published.ticket else { return false }
            published.ticket = ticket
            guard status != published.status else { return false }
            published.status = status
            // Yielded under the lock, so every observer gets the changes in one order.
            broadcaster.yield(status)
            return true
        }
        if changed {
            logger.debug("session status changed", metadata: ["service": "\(keyring.service)", "status": "\(status.rawValue)"])
        }
    }
}
