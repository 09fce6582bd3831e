package import KeyringCrypto

extension SecretServiceStore {
    /// Which collection a ``SecretServiceStore`` reads and writes, and why that one;
    /// `swift-keyring doctor` shows it.
    public struct CollectionInUse: Sendable, Hashable, CustomStringConvertible {
        /// The collection's object path, such as `/org/freedesktop/secrets/collection/login`;
        /// `nil` when there is none yet (see ``reason``).
        public var path: String?
        /// Why this collection, or what a write would do when there is none.
        public var reason: String

        /// The path and the reason, as one line.
        public var description: String {
            path.map { "\($0) (\(reason))" } ?? "none (\(reason))"
        }
    }

    /// Which collection the store uses and why, asked of the daemon without creating
    /// anything or prompting.
    ///
    /// ```swift
    /// print(try store.collectionInUse()) // /org/freedesktop/secrets/collection/login (the default alias names it)
    /// ```
    /// - Throws: `KeyringError` when the daemon cannot be asked, for example `.timedOut`.
    public func collectionInUse() throws -> CollectionInUse {
        let operation = self.operation("find the collection in use", Deadline(timeout))
        let found = try client.run(operation) { try $0.describeCollection(in: operation) }
        if let found { return CollectionInUse(path: found.path, reason: found.reason) }
        if let name = collection.name {
            return CollectionInUse(path: nil, reason: "no collection has the alias or label \"\(name)\"")
        }
        let then =
            collection.sessionFallback
            ? "if it creates none, the session collection (in memory, gone at logout), as asked"
            : "if it creates none, the write fails (SWIFT_KEYRING_SESSION_FALLBACK=true allows the session collection)"
        return CollectionInUse(
            path: nil,
            reason: "no default collection (the default alias is not set): a write asks the daemon to create one "
                + "(gnome-keyring asks for its password at a prompt); \(then)")
    }

    /// Unlocks the collection in use (the default one, or the one named) with its
    /// password, without a prompt: for a person at a terminal over SSH, or a script
    /// that holds the password.
    ///
    /// Only gnome-keyring can (through its own interface, as `gnome-keyring-daemon
    /// --unlock` unlocks the login keyring at login); the password crosses the bus
    /// encrypted under the key agreed with the daemon, and is never logged. A
    /// collection already unlocked stays so. The `String` cannot be wiped: its
    /// bytes are copied into secure memory, wiped after the call, but the caller's
    /// copy stays until Swift frees it. `swift-keyring unlock` reads the password
    /// straight into secure memory instead.
    ///
    /// ```swift
    /// try SecretServiceStore().unlock(password: password)
    /// ```
    /// - Throws: ``KeyringError/wrongPassphrase`` when the daemon refuses the password
    ///   (the collection stays locked), `.serviceUnavailable` with
    ///   ``KeyringError/Unavailability/Kind/noPasswordUnlock`` naming the daemon when it
    ///   cannot unlock that way (KeePassXC, KWallet), or
    ///   ``KeyringError/Unavailability/Kind/noCollection`` when there is no such collection.
    public func unlock(password: String) throws {
        let secret = try KeyringError.translatingCrypto { try SecureBytes(copying: password.utf8) }
        try unlock(password: secret)
    }

    /// Creates the default collection, locked with `password`, without a prompt, where
    /// there is none (WSL, a minimal session): what `gnome-keyring-daemon --unlock` does
    /// for the login keyring at login. It is unlocked afterwards, and the same password
    /// unlocks it after the next login (``unlock(password:)``).
    ///
    /// Only gnome-keyring can. An empty password would make a keyring stored unencrypted,
    /// so it is refused. `swift-keyring unlock` calls this when there is no default collection.
    /// - Parameters:
    ///   - password: the new collection's password; not empty.
    ///   - label: the collection's label, as Seahorse shows it; `Login` unless given.
    /// - Returns: the new collection's object path.
    /// - Throws: `.invalidConfiguration` naming `password` when it is empty, `.serviceUnavailable`
    ///   with ``KeyringError/Unavailability/Kind/noPasswordUnlock`` naming a daemon that cannot.
    @discardableResult
    public func createDefaultCollection(password: String, label: String = "Login") throws -> String {
        let secret = try KeyringError.translatingCrypto { try SecureBytes(copying: password.utf8) }
        return try createDefaultCollection(password: secret, label: label)
    }

    /// ``createDefaultCollection(password:label:)`` with a password already in secure memory.
    @discardableResult
    package func createDefaultCollection(password: SecureBytes, label: String = "Login") throws -> String {
        guard password.count > 0 else {
            throw KeyringError.invalidConfiguration(
                setting: "password", reason: "must not be empty: the keyring would be stored unencrypted")
        }
        let operation = self.operation("create the default collection", Deadline(timeout))
        do {
            return try client.run(operation) { try $0.createDefault(label: label, password: password, in: operation) }
        } catch let error as KeyringError {
            throw error.placed(in: .secretService)
        }
    }

    /// ``unlock(password:)`` with a password already in secure memory, which the caller wipes.
    package func unlock(password: SecureBytes) throws {
        let operation = self.operation("unlock the collection", Deadline(timeout))
        do {
            try client.run(operation) { client in
                try client.unlock(client.collection(in: operation).path, password: password, in: operation)
            }
        } catch let error as KeyringError {
            throw error.placed(in: .secretService)
        }
    }
}
