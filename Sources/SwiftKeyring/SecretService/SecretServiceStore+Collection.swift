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
        let deadline = Deadline(timeout)
        let found = try client.run("find the collection in use", deadline: deadline) { client in
            try client.describeCollection(deadline: deadline)
        }
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

    /// ``unlock(password:)`` with a password already in secure memory, which the caller wipes.
    package func unlock(password: SecureBytes) throws {
        let deadline = Deadline(timeout)
        do {
            try client.run("unlock the collection", deadline: deadline) { client in
                try client.unlock(client.collection(deadline: deadline).path, password: password, deadline: deadline)
            }
        } catch let error as KeyringError {
            throw error.placed(in: .secretService)
        }
    }
}
