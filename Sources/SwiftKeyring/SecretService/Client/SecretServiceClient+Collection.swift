/// Which collection a client reads and writes: the default one (its alias, a
/// collection the daemon creates, or the `session` collection when asked), or the
/// one the caller named.
///
/// What gnome-keyring 42 does with no default collection (a new `HOME` started
/// without `--unlock`, as in WSL or a minimal session), checked here: `ReadAlias
/// ("default")` answers `/`, `Collections` holds only `…/collection/session`, and
/// `CreateCollection` always answers with a prompt that asks for the new keyring's
/// password. With no display that prompt ends at once as dismissed (the prompter
/// cannot start) and nothing is created; with a prompter that answers (gcr's mock
/// prompter in the tests) the collection is created and the `default` alias set.
extension SecretServiceClient {
    /// The label a created default collection gets, as libsecret gives it.
    private static let createdLabel = "Default keyring"

    /// The collection searches are limited to: the named one's path, or `nil` for the
    /// default choice, whose searches go over every collection as libsecret's do.
    /// - Throws: `KeyringError.serviceUnavailable(reason: .noCollection)` naming a collection that does not exist.
    func searchScope(in operation: SecretOperation) throws -> String? {
        guard choice.name != nil else { return nil }
        return try collection(in: operation).path
    }

    /// The collection in use, resolved once and remembered; never creates one.
    /// - Throws: `.serviceUnavailable(reason: .noCollection)` when there is none.
    func collection(in operation: SecretOperation) throws -> ResolvedCollection {
        if let known = resolved.withLock({ $0 }) { return known }
        guard let found = try find(in: operation) else {
            throw KeyringError.serviceUnavailable(reason: .noCollection(detail: missingDetail(created: false)))
        }
        return remember(found)
    }

    /// The collection new items go to: as `collection(in:)`, but with no default
    /// collection the daemon is asked to create one (which may prompt), and else the
    /// `session` collection is used when the caller allowed it.
    /// - Throws: `.serviceUnavailable(reason: .noCollection)` when none can be had,
    ///   `.promptTimedOut`, or the calls' errors.
    func collectionForWriting(in operation: SecretOperation) throws -> ResolvedCollection {
        if let known = resolved.withLock({ $0 }) { return known }
        if let found = try find(in: operation) { return remember(found) }
        guard choice.name == nil else {
            throw KeyringError.serviceUnavailable(reason: .noCollection(detail: missingDetail(created: false)))
        }
        if let created = try createDefault(in: operation) {
            return remember(ResolvedCollection(path: created, reason: "no default collection was set; the daemon created one"))
        }
        if choice.sessionFallback, let session = try alias("session", in: operation) {
            return remember(
                ResolvedCollection(
                    path: session,
                    reason: "no default collection and the daemon created none; the session collection, as asked "
                        + "(its records are kept in memory and gone at logout)"))
        }
        throw KeyringError.serviceUnavailable(reason: .noCollection(detail: missingDetail(created: true)))
    }

    /// What the store would use and why, without creating anything: for `doctor`.
    func describeCollection(in operation: SecretOperation) throws -> ResolvedCollection? {
        if let known = resolved.withLock({ $0 }) { return known }
        return try find(in: operation)
    }

    private func remember(_ found: ResolvedCollection) -> ResolvedCollection {
        resolved.withLock { known in
            if known == nil { known = found }
            return known!
        }
    }

    /// The words after "no collection: ".
    private func missingDetail(created: Bool) -> String {
        if let name = choice.name {
            return "the Secret Service has no collection with the alias or label \"\(name)\""
        }
        let fallback =
            choice.sessionFallback
            ? "and it has no session collection either"
            : "set SWIFT_KEYRING_SESSION_FALLBACK=true (or --session-fallback) to use the in-memory session collection"
        return created
            ? "the Secret Service has no default collection and did not create one (gnome-keyring asks for the new "
                + "keyring's password at a prompt, which was dismissed or cannot be shown here); \(fallback), "
                + "or name a collection that exists"
            : "the Secret Service has no default collection (the default alias is not set)"
    }

    /// The collection the choice names, or the default alias's; `nil` when there is none.
    private func find(in operation: SecretOperation) throws -> ResolvedCollection? {
        guard let name = choice.name else {
            return try alias("default", in: operation).map {
                ResolvedCollection(path: $0, reason: "the default alias names it")
            }
        }
        if name.hasPrefix("/") {
            let collections = try collectionPaths(in: operation)
            return collections.contains(name) ? ResolvedCollection(path: name, reason: "named by its path") : nil
        }
        // The alias first: one call, and the common case (`default`, `session`, `login`).
        if let path = try alias(name, in: operation) {
            return ResolvedCollection(path: path, reason: "named by its alias \"\(name)\"")
        }
        let collections = try collectionPaths(in: operation)
        let labelled = try collections.filter { path in
            try collection(at: path).label(in: operation.step("read the label of \(path)")) == name
        }
        guard labelled.count <= 1 else {
            throw KeyringError.invalidConfiguration(
                setting: "collection",
                reason: "\(labelled.count) collections are labelled \"\(name)\"; name one by its alias or path")
        }
        return labelled.first.map { ResolvedCollection(path: $0, reason: "named by its label \"\(name)\"") }
    }

    /// The path an alias names (`Service.ReadAlias`); `nil` when the daemon answers `/`.
    ///
    /// Calls are never sent to an alias path such as `/org/freedesktop/secrets/aliases/default`:
    /// gnome-keyring 42 rewrites such a call's path in its D-Bus worker thread, reading
    /// the alias from a table its main thread replaces (freeing the old string) each
    /// time a new client connects, so under many clients a `CreateItem` went to a path
    /// of freed bytes ("Object does not exist at path …/collection/_81BB3FV", one `set`
    /// in 935 of the stress suite). So the alias is read once, and the collection's own
    /// path used and remembered, as libsecret remembers its collections.
    private func alias(_ name: String, in operation: SecretOperation) throws -> String? {
        let path = try service.readAlias(name, in: operation.step("read the collection alias \(name)"))
        return path == SecretServiceNames.none ? nil : path
    }

    /// Every collection's path (the service's `Collections` property).
    private func collectionPaths(in operation: SecretOperation) throws -> [String] {
        try service.collections(in: operation.step("list the collections"))
    }

    /// Asks the daemon to create the default collection (`CreateCollection` with the
    /// alias `default`), completing the prompt it returns; `nil` when the prompt was
    /// dismissed (or, with no display, could not be shown).
    private func createDefault(in operation: SecretOperation) throws -> String? {
        let creating = operation.step("create the default collection to \(operation.asked)")
        let created = try service.createCollection(label: Self.createdLabel, alias: "default", in: creating)
        // The prompt asks the person for the new keyring's password, as an unlock prompt does:
        // the same bound, and the same error when nobody answers.
        switch try SecretPrompt.outcome(of: created.prompt, on: bus, daemon: destination, unlocking: true, in: creating) {
        case .none: return created.path == SecretServiceNames.none ? nil : created.path
        case .dismissed: return nil
        case .completed(let paths): return paths.first
        }
    }
}
