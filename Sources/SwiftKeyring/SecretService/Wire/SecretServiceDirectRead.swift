internal import CLibSecretShims
internal import KeyringCrypto

/// Records read from the Secret Service on a connection of our own (`WireConnection`),
/// without loading libsecret, GIO, GObject or GLib: for the tool's `get` and the git
/// helper's `get`, short processes in which loading those libraries cost more than the reading.
///
/// The calls are those `SecretServiceStore` makes, in the same order and with the same
/// checks: the daemon's name asked of the bus (so that only the name's owner is heard, and
/// a bus with no daemon running starts none here), the greeting first (gnome-keyring aborts when a new connection's first call is
/// another), `SearchItems` with `OpenSession` beside it (our key pair made while the
/// greeting is answered), then an item's `Attributes` with its secret, checked to be the
/// record wanted. It answers only the plain case: unlocked items of ours, the one wanted
/// held by a single item, read under an agreed key (or a plain transfer, with a daemon
/// without the key exchange, as the store falls back to). Anything else (no item,
/// duplicates, a locked one, a key the daemons could disagree on, a reply of another
/// shape, an error, a timeout) gives `nil`, and the caller asks the store,
/// which decides, unlocks and words errors as always: this read makes a `get` faster, never different.
enum SecretServiceDirectRead {
    /// Where the Secret Service is and how long the read may take.
    struct Target {
        let address: String
        /// The bound on the whole read: a daemon slower than that is left to the store, with its own timeout.
        let bound: Duration
    }

    /// Items more than this, in a search of a service, are left to the store: the direct
    /// read is for the few records a git host or an app has.
    static let maximumItems = 64

    private static let service = BusConnection.secretServiceName
    private static let servicePath = SWIFT_KEYRING_SERVICE_PATH
    private static let serviceInterface = "org.freedesktop.Secret.Service"
    private static let properties = "org.freedesktop.DBus.Properties"

    /// The record `id`, or `nil` when the store must be asked.
    static func record(_ id: RecordID, at target: Target) -> StoredRecord? {
        try? withSession(searching: SecretAttributes.identityValues(id), at: target) { session, unlocked in
            guard unlocked.count == 1 else { return nil }
            return try session.record(at: unlocked[0], being: id)
        }
    }

    /// The first record of `service` (credentials) that `choose` picks among the keys of its
    /// items, as `SecretServiceStore.firstRecord` picks it; `nil` when the store must be asked.
    static func chosenRecord(service: String, choosing choose: ([String]) -> [String], at target: Target)
        -> StoredRecord?
    {
        let scope = SecretAttributes.scopeValues(service: service, kind: .credentials)
        return try? withSession(searching: scope, at: target) { session, unlocked in
            guard unlocked.count <= maximumItems else { return nil }
            // As the store's listing: items of another service or kind, or not ours, are not offered.
            let ids = try session.identities(of: unlocked).map { path, id in
                id.flatMap { $0.service.utf8.elementsEqual(service.utf8) && $0.kind == .credentials ? ($0, path) : nil }
            }.compactMap { $0 }
            guard let key = choose(ids.map(\.0.key)).first else { return nil }
            let holding = ids.filter { $0.0.key.utf8.elementsEqual(key.utf8) }
            guard holding.count == 1 else { return nil }
            return try session.record(at: holding[0].1, being: holding[0].0)
        }
    }

    /// Connects, greets the daemon, searches for `attributes` while a transfer with an agreed
    /// key opens, and hands `body` the session and the unlocked items found; `nil` when any
    /// item found is locked, or any step does not go plainly.
    private static func withSession(
        searching attributes: [(String, String)], at target: Target,
        _ body: (Session, [String]) throws -> StoredRecord?
    ) throws -> StoredRecord? {
        guard let bus = WireConnection(address: target.address, deadline: Deadline(target.bound))
        else { return nil }
        // The daemon is whoever the bus says owns the name, never whoever answers first:
        // another program on the bus could answer a call to the well-known name's serial.
        // The bus's own reply comes from `org.freedesktop.DBus`, which nobody else can be.
        // No owner means no daemon running: the store decides whether the bus may start one.
        let owner = try bus.call(
            destination: WireConnection.bus, path: "/org/freedesktop/DBus", interface: WireConnection.bus,
            member: "GetNameOwner", signature: "s"
        ) { $0.string(service) }
        guard owner.errorName == nil, owner.values.count == 1, let daemon = owner.values[0].string,
            daemon.hasPrefix(":")
        else { return nil }
        let greeting = try bus.send(
            destination: daemon, path: servicePath, interface: properties, member: "Get", signature: "ss"
        ) {
            $0.string(serviceInterface)
            $0.string("Collections")
        }
        // Our half of the key exchange, while the daemon answers the greeting.
        let agreement = try DHKeyAgreement()
        guard try bus.reply(to: greeting).errorName == nil else { return nil }
        let opening = try openSession(agreement, on: bus, daemon: daemon)
        let search = try bus.send(
            destination: daemon, path: servicePath, interface: serviceInterface, member: "SearchItems", signature: "a{ss}"
        ) { arguments in
            arguments.array(elementAlignment: 8) { entries in
                for (name, value) in attributes {
                    entries.fields {
                        $0.string(name)
                        $0.string(value)
                    }
                }
            }
        }
        let opened = try bus.reply(to: opening)
        let found = try bus.reply(to: search)
        // Every reply here is the daemon's, or an error of the bus (WireConnection takes no other).
        guard found.errorName == nil, found.values.count == 2,
            let unlocked = found.values[0].strings, let locked = found.values[1].strings, locked.isEmpty
        else { return nil }
        let transfer: String
        let key: SecureBytes?
        if opened.errorName == "org.freedesktop.DBus.Error.NotSupported" {
            // A daemon without the key exchange: a plain transfer, as the store falls back to.
            let plain = try bus.call(
                destination: daemon, path: servicePath, interface: serviceInterface, member: "OpenSession", signature: "sv"
            ) {
                $0.string("plain")
                $0.signature("s")
                $0.string("")
            }
            guard plain.errorName == nil, plain.values.count == 2,
                let path = plain.values[1].string
            else { return nil }
            (transfer, key) = (path, nil)
        } else {
            guard let agreed = try agreedTransfer(opened, agreement, on: bus, daemon: daemon) else { return nil }
            (transfer, key) = agreed
        }
        return try body(Session(bus: bus, daemon: daemon, transfer: transfer, key: key), unlocked)
    }

    /// Sends `OpenSession` with our half of `agreement`; returns its serial.
    private static func openSession(_ agreement: DHKeyAgreement, on bus: WireConnection, daemon: String) throws -> UInt32 {
        try bus.send(
            destination: daemon, path: servicePath, interface: serviceInterface, member: "OpenSession", signature: "sv"
        ) {
            $0.string(SecretTransfer.algorithm)
            $0.signature("ay")
            $0.byteArray(agreement.publicValue)
        }
    }

    /// The transfer an `OpenSession` reply opened and the key agreed for it; `nil` when a
    /// reply is not plain. A key exchange the daemons could disagree on (one in 256, see
    /// `DHKeyAgreement.key(peer:)`) is closed and followed by another, as the store does, at
    /// most `SecretServiceClient.openingAttempts` in all: leaving it to the store would cost
    /// that `get` the libraries this read is there to skip.
    private static func agreedTransfer(
        _ first: WireConnection.Reply, _ firstAgreement: DHKeyAgreement, on bus: WireConnection, daemon: String
    ) throws -> (String, SecureBytes)? {
        var (reply, agreement) = (first, firstAgreement)
        for attempt in 1...SecretServiceClient.openingAttempts {
            guard reply.errorName == nil, reply.values.count == 2,
                case .variant("ay", .bytes(let peer)) = reply.values[0], let path = reply.values[1].string
            else { return nil }
            if let key = try peer.withUnsafeBytes({ try agreement.key(peer: $0) }) { return (path, key) }
            // Its reply is not waited for: the connection sets it aside, unread.
            _ = try bus.send(destination: daemon, path: path, interface: "org.freedesktop.Secret.Session", member: "Close")
            guard attempt < SecretServiceClient.openingAttempts else { break }
            agreement = try DHKeyAgreement()
            reply = try bus.reply(to: openSession(agreement, on: bus, daemon: daemon))
        }
        return nil
    }

    /// A greeted daemon and an open transfer on `bus`.
    private struct Session {
        let bus: WireConnection
        let daemon: String
        let transfer: String
        /// `nil` for a plain transfer.
        let key: SecureBytes?

        /// The record each item holds (`nil` for an item that is not ours), their `Attributes` asked for together.
        func identities(of items: [String]) throws -> [(String, RecordID?)] {
            let calls = try items.map { try attributesCall($0) }
            return try zip(items, calls).map { item, call in
                (item, try summary(try bus.reply(to: call))?.id)
            }
        }

        /// The record in `item`, its attributes and secret read together; `nil` unless it is `id`'s.
        func record(at item: String, being id: RecordID) throws -> StoredRecord? {
            let attributesCall = try attributesCall(item)
            let secretCall = try bus.send(
                destination: daemon, path: servicePath, interface: serviceInterface, member: "GetSecrets", signature: "aoo"
            ) {
                $0.array(elementAlignment: 4) { $0.string(item) }
                $0.string(transfer)
            }
            let attributes = try bus.reply(to: attributesCall)
            let secrets = try bus.reply(to: secretCall)
            guard let summary = try summary(attributes), summary.id == id,
                secrets.errorName == nil,
                let secret = secrets.values.first?.array?.lazy.compactMap(\.fields).first(where: {
                    $0.count == 2 && $0[0].string == item
                })?[1].fields,
                secret.count == 4, let parameters = secret[1].bytes, let ciphertext = secret[2].bytes
            else { return nil }
            var bytes = ciphertext
            if let key {
                let plain = try parameters.withUnsafeBytes { iv in
                    try ciphertext.withUnsafeBytes { try AESCBC(key: key).open(iv: iv, ciphertext: $0) }
                }
                bytes = plain.withBytes { Array($0) }
            }
            guard (try? SecretServiceStore.checked(bytes, of: id)) != nil else {
                bytes.wipe()
                return nil
            }
            return StoredRecord(id: id, metadata: summary.metadata, secret: bytes)
        }

        private func attributesCall(_ item: String) throws -> UInt32 {
            try bus.send(destination: daemon, path: item, interface: properties, member: "Get", signature: "ss") {
                $0.string("org.freedesktop.Secret.Item")
                $0.string("Attributes")
            }
        }

        /// What an `Attributes` reply says of the item; `nil` for an item not ours.
        /// - Throws: `WireConnection.Failure` when the reply is an error or of another shape.
        private func summary(_ reply: WireConnection.Reply) throws -> RecordSummary? {
            guard reply.errorName == nil,
                case .variant("a{ss}", .array(let entries))? = reply.values.first
            else { throw WireConnection.Failure() }
            var table: [String: String] = [:]
            for entry in entries {
                guard let pair = entry.fields, pair.count == 2, let name = pair[0].string, let value = pair[1].string,
                    table.updateValue(value, forKey: name) == nil
                else { throw WireConnection.Failure() }
            }
            return SecretAttributes.summary(from: table)
        }
    }
}
