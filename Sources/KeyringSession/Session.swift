import Foundation
import Keyring
import Logging
import Synchronization

/// Whether the user is logged in, and the values that make it so.
///
/// A session keeps the app's `SessionProperty` values: secure ones as secrets
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
/// `Session`s (in one process or several) on the same service see each other's
/// saves. A session's own changes of status reach its observers once each, in
/// order; a change made by another `Session` reaches them when this one next
/// reads or writes. `Session` is safe to use from many threads and tasks.
public final class Session<Property: SessionProperty>: Sendable {
    /// The keyring the secure properties and the default credentials live in.
    public let keyring: Keyring
    /// The properties that must all have a value for the user to count as logged in.
    public let requiredProperties: [Property]
    /// Where the non-secure properties are kept: `state.json` in the session's folder.
    public let stateFileURL: URL

    private let stateFile: StateFile
    private let broadcaster = StatusBroadcaster()
    /// The status observers were last told; holding it also makes this session's changes take turns.
    private let lastStatus = Mutex(LoginStatus.loggedOut)
    private let logger = Logger(label: "swift-keyring.session")

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
    /// - Throws: `KeyringError.invalidRecord` naming a required property that is persisted;
    ///   `KeyringError.damaged` naming the state file when it cannot be parsed;
    ///   `KeyringError.insecurePermissions` when the state folder or file is open to others, belongs
    ///   to another user, or is a symbolic link; a keyring error.
    public init(
        keyring: Keyring,
        requiredProperties: [Property],
        stateDirectory: URL? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        lockTimeout: Duration = .seconds(5)
    ) throws {
        if let persisted = requiredProperties.first(where: \.isPersisted) {
            throw KeyringError.invalidRecord(
                field: persisted.rawValue,
                reason: "is required, so it cannot be persisted: logout would leave the user logged in"
            )
        }
        var folder = stateDirectory?.absoluteURL.standardizedFileURL.path(percentEncoded: false)
            ?? StateFile.defaultFolder(service: keyring.service, environment: environment)
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        self.keyring = keyring
        self.requiredProperties = requiredProperties
        self.stateFile = StateFile(folder: folder, lockTimeout: lockTimeout)
        self.stateFileURL = URL(filePath: stateFile.path)
        let initial = try computeStatus()
        lastStatus.withLock { $0 = initial }
    }

    deinit {
        broadcaster.finishAll()
    }

    // MARK: Status

    /// The status now, from the stored values: `.loggedIn` when every required property has one.
    /// - Throws: a keyring error, or `KeyringError.damaged` naming an unreadable state file.
    public var status: LoginStatus {
        get throws {
            try lastStatus.withLock { last in
                let now = try computeStatus()
                publish(now, &last)
                return now
            }
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
            return (stateValues?[property.rawValue] ?? .null) == .null
        }
    }

    /// Confirms the login once the app has saved the required properties.
    ///
    /// The status follows the stored values, so it is `.loggedIn` as soon as the
    /// last required property is saved; this call is the checked way for login
    /// code to say "done", failing loudly when a value was forgotten.
    /// - Throws: `KeyringError.invalidRecord` naming the first required property with no value
    ///   (or `requiredProperties` when there are none); the status stays `.loggedOut` then.
    public func markLoggedIn() throws {
        try lastStatus.withLock { last in
            guard !requiredProperties.isEmpty else {
                throw KeyringError.invalidRecord(field: "requiredProperties", reason: "is empty, so the session is never logged in")
            }
            if let missing = try missingRequiredProperties().first {
                throw KeyringError.invalidRecord(field: missing.rawValue, reason: "is required to log in and has no value")
            }
            publish(.loggedIn, &last)
        }
    }

    /// Forgets every property that is not persisted (secure or not) and the
    /// keyring's default credentials, keeps the persisted properties, and sets the status to `.loggedOut`.
    ///
    /// Every removal is tried even when one fails, so a damaged state file does
    /// not keep a token in the keyring.
    /// - Throws: the first error met; what could be removed is removed.
    public func logout() throws {
        try lastStatus.withLock { last in
            let forgotten = Property.allCases.filter { !$0.isPersisted }
            var failures: [any Error] = []
            for property in forgotten where property.isSecure {
                do {
                    try keyring.removeSecret(forKey: SecretKeys.property(property.rawValue))
                } catch {
                    failures.append(error)
                }
            }
            let plain = forgotten.filter { !$0.isSecure }
            if !plain.isEmpty {
                do {
                    try stateFile.update { values in
                        for property in plain { values[property.rawValue] = nil }
                    }
                } catch {
                    failures.append(error)
                }
            }
            do {
                try keyring.removeDefault()
            } catch {
                failures.append(error)
            }
            publish(.loggedOut, &last)
            logger.debug("logged out", metadata: ["service": "\(keyring.service)", "failures": "\(failures.count)"])
            if let first = failures.first { throw first }
        }
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
        return StatusObservation(task: Task {
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
        try lastStatus.withLock { last in
            try store(value, for: property)
            logger.debug("saved session property", metadata: ["property": "\(property.rawValue)", "removed": "\(value == nil)"])
            do {
                publish(try computeStatus(), &last)
            } catch {
                logger.warning("session status unknown after a save", metadata: ["error": "\(error)"])
            }
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
        let mismatch = KeyringError.invalidRecord(field: property.rawValue, reason: "holds a value that cannot be read as \(Value.self)")
        if property.isSecure {
            guard let bytes = try keyring.secret(forKey: SecretKeys.property(property.rawValue)) else { return nil }
            guard let value = SecretCoding.value(Value.self, from: bytes) else { throw mismatch }
            return value
        }
        guard let json = try stateFile.read()[property.rawValue], json != .null else { return nil }
        do {
            return try json.decoded(as: Value.self)
        } catch {
            throw mismatch
        }
    }

    private func store<Value: Encodable>(_ value: Value?, for property: Property) throws {
        let unencodable = KeyringError.invalidRecord(field: property.rawValue, reason: "cannot be encoded as JSON")
        if property.isSecure {
            let key = SecretKeys.property(property.rawValue)
            let bytes: Data?
            do {
                bytes = try value.flatMap { try SecretCoding.bytes(of: $0) }
            } catch {
                throw unencodable
            }
            if let bytes {
                try keyring.setSecret(bytes, forKey: key)
            } else {
                try keyring.removeSecret(forKey: key)
            }
            return
        }
        let json: JSONValue?
        do {
            json = try value.map { try JSONValue(encoding: $0) }
        } catch {
            throw unencodable
        }
        try stateFile.update { $0[property.rawValue] = json == .null ? nil : json }
    }

    // MARK: Status bookkeeping

    private func computeStatus() throws -> LoginStatus {
        if requiredProperties.isEmpty { return .loggedOut }
        return try missingRequiredProperties().isEmpty ? .loggedIn : .loggedOut
    }

    /// Records `status` and tells observers when it differs from the last one; called holding `lastStatus`.
    private func publish(_ status: LoginStatus, _ last: inout LoginStatus) {
        guard status != last else { return }
        last = status
        broadcaster.yield(status)
        logger.debug("session status changed", metadata: ["service": "\(keyring.service)", "status": "\(status.rawValue)"])
    }
}
