extension Keyring {
    /// The password stored under `key` in `service`'s keyring, read from the Secret Service on a
    /// D-Bus connection of its own, before any store is opened; `nil` when the answer must come
    /// from `Keyring(service:configuration:)` as always.
    ///
    /// For a process that reads one password and ends (`swift-keyring get`, the git helper): it
    /// loads neither libsecret nor GIO, GObject and GLib, which cost such a process more than
    /// its reading (`SecretServiceDirectRead`). It answers only where the keyring would choose
    /// the Secret Service (asked for, or `auto` outside a sandbox with the daemon answering the
    /// selection's ping) in its default collection, with every setting valid, and the record
    /// plainly there (one unlocked item, read under an agreed key). Whatever else, such as no
    /// record, a locked collection or a bad setting, gives `nil`: the keyring then decides,
    /// prompts and words its errors as it always does, so the answer never differs.
    ///
    /// `bound` is the wait for the whole read, unless the configuration's timeout is shorter:
    /// store selection's probe bound unless given, so that a daemon slow to answer costs a
    /// `get` little before the keyring asks it again with its own timeout. (Tests that load
    /// the daemon on purpose give a longer one, to see every answer given directly.)
    package static func directPassword(
        forKey key: String, service: String, configuration: KeyringConfiguration,
        bound: Duration = StoreSelector.probeTimeout
    ) -> String? {
        try? password(taking: directRecord(forKey: key, service: service, configuration: configuration, bound: bound))
    }

    /// The credentials stored under `key`, read as ``directPassword(forKey:service:configuration:bound:)``
    /// reads; `nil` when the keyring must be asked (a record whose fields do not make
    /// credentials included: the keyring words why).
    package static func directCredentials(
        forKey key: String, service: String, configuration: KeyringConfiguration,
        bound: Duration = StoreSelector.probeTimeout
    ) -> Credentials? {
        try? credentials(taking: directRecord(forKey: key, service: service, configuration: configuration, bound: bound))
    }

    private static func directRecord(
        forKey key: String, service: String, configuration: KeyringConfiguration, bound: Duration
    ) -> StoredRecord? {
        guard (try? RecordValidation.checkKey(key)) != nil, let target = directTarget(service, configuration, bound) else {
            return nil
        }
        return SecretServiceDirectRead.record(RecordID(service: service, key: key, kind: .credentials), at: target)
    }

    /// ``chosenPassword(choosing:)`` of `service`'s keyring, read as ``directPassword(forKey:service:configuration:bound:)``
    /// reads: `nil` when the keyring must be asked (then it gives the answer, whatever it is).
    package static func directChosenPassword(
        service: String, configuration: KeyringConfiguration, bound: Duration = StoreSelector.probeTimeout,
        choosing choose: ([String]) -> [String]
    ) -> (key: String, password: String)? {
        guard let target = directTarget(service, configuration, bound),
            let record = SecretServiceDirectRead.chosenRecord(service: service, choosing: choose, at: target)
        else { return nil }
        // A record whose URL `list()` cannot parse is one the listing leaves out: the keyring decides.
        guard CredentialsSummary(RecordSummary(id: record.id, metadata: record.metadata)) != nil,
            let password = try? password(taking: record)
        else {
            var secret = record.secret
            secret.wipe()
            return nil
        }
        return (record.id.key, password)
    }

    /// Where a direct read goes, when `configuration` would have `service`'s keyring on the
    /// Secret Service's default collection with every setting valid; else `nil`.
    private static func directTarget(_ service: String, _ configuration: KeyringConfiguration, _ bound: Duration)
        -> SecretServiceDirectRead.Target?
    {
        guard (try? RecordValidation.checkService(service)) != nil,
            let choice = try? StoreSelector.checkedChoice(configuration),
            choice == .auto || choice == .secretService,
            (try? configuration.requestedCollection()) == .some(nil),
            let promptTimeout = try? configuration.requestedPromptTimeout(),
            (try? SecretServiceStore.checkSettings(
                timeout: configuration.timeout, promptTimeout: promptTimeout, collection: nil)) != nil,
            let address = try? SessionBusAddress.resolve(configuration.environment)
        else { return nil }
        if choice == .auto {
            // Inside a Flatpak or Snap `auto` may choose libsecret's file: the keyring decides.
            guard let sandbox = try? StoreSelector.sandboxSelection(configuration), sandbox.0 == nil else { return nil }
        }
        return SecretServiceDirectRead.Target(
            address: address, bound: min(bound, configuration.timeout))
    }
}
