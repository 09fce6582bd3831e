/// `org.freedesktop.Secret.Service`, the daemon's object at `/org/freedesktop/secrets`: one
/// function per method the client calls, each building the call and reading its typed reply.
/// Those whose reply is waited for later (to have several calls in flight) return the call sent;
/// those a new connection's first flight carries may go to the well-known name, bound to the
/// bus's answer about its owner (`owner`, see `BusConnection.askOwner`).
struct ServiceInterface {
    let object: BusObject

    init(bus: BusConnection, daemon: String) {
        object = BusObject(bus: bus, destination: daemon, path: SecretServiceNames.servicePath)
    }

    /// The greeting, sent: a read of the `Collections` property whose value is only checked (see
    /// `SecretServiceClient.init` for why it is a new connection's first call to the daemon).
    func greeting(owner: BusConnection.OwnerQuery? = nil, deadline: Deadline) throws -> PendingReply<Void> {
        try object.properties.get(
            SecretServiceNames.service, "Collections", owner: owner, deadline: deadline,
            decode: SecretReplies.anyVariant)
    }

    /// What a greeting's wait is called in errors.
    static let greetingAsked = "connect to the Secret Service"

    /// `OpenSession(s algorithm, v input) → (v output, o result)`, sent; `input` writes the variant.
    func openSession(
        _ algorithm: String, deadline: Deadline, input: (inout WireWriter) -> Void
    ) throws -> PendingReply<SecretReplies.Opened> {
        try object.send(
            SecretServiceNames.service, "OpenSession", signature: "sv", reply: "vo", deadline: deadline,
            decode: SecretReplies.openSession
        ) {
            $0.string(algorithm)
            input(&$0)
        }
    }

    /// `SearchItems(a{ss} attributes) → (ao unlocked, ao locked)`, sent.
    func searchItems(_ attributes: [String: String], deadline: Deadline) throws -> PendingReply<SecretReplies.Found> {
        try object.send(
            SecretServiceNames.service, "SearchItems", signature: "a{ss}", reply: "aoao", deadline: deadline,
            decode: SecretReplies.searchItems
        ) { $0.stringTable(attributes) }
    }

    /// `Unlock(ao objects) → (ao unlocked, o prompt)`.
    func unlock(_ paths: [String], in operation: SecretOperation) throws -> SecretReplies.Unlocked {
        try object.send(
            SecretServiceNames.service, "Unlock", signature: "ao", reply: "aoo", deadline: operation.deadline,
            decode: SecretReplies.unlock
        ) { $0.strings(paths) }.value(in: operation)
    }

    /// `GetSecrets(ao items, o session) → a{o(oayays)}`, sent.
    func getSecrets(_ paths: [String], session: String, deadline: Deadline) throws
        -> PendingReply<[SecretReplies.Secret]>
    {
        try object.send(
            SecretServiceNames.service, "GetSecrets", signature: "aoo", reply: "a{o(oayays)}", deadline: deadline,
            decode: SecretReplies.getSecrets
        ) {
            $0.strings(paths)
            $0.string(session)
        }
    }

    /// `ReadAlias(s name) → o`: the collection's path, `/` for none.
    func readAlias(_ name: String, in operation: SecretOperation) throws -> String {
        try object.send(
            SecretServiceNames.service, "ReadAlias", signature: "s", reply: "o", deadline: operation.deadline,
            decode: BasicReplies.path
        ) { $0.string(name) }.value(in: operation)
    }

    /// `CreateCollection(a{sv} properties, s alias) → (o collection, o prompt)`, with only a label.
    func createCollection(label: String, alias: String, in operation: SecretOperation) throws -> SecretReplies.Created {
        try object.send(
            SecretServiceNames.service, "CreateCollection", signature: "a{sv}s", reply: "oo",
            deadline: operation.deadline, decode: SecretReplies.created
        ) {
            $0.properties([(SecretServiceNames.collectionLabel, "s", { $0.string(label) })])
            $0.string(alias)
        }.value(in: operation)
    }

    /// `SetAlias(s name, o collection)`.
    func setAlias(_ name: String, to collection: String, in operation: SecretOperation) throws {
        try object.send(
            SecretServiceNames.service, "SetAlias", signature: "so", reply: "", deadline: operation.deadline,
            decode: BasicReplies.none
        ) {
            $0.string(name)
            $0.string(collection)
        }.value(in: operation)
    }

    /// The `Collections` property: every collection's path.
    func collections(in operation: SecretOperation) throws -> [String] {
        let value = try object.properties.get(
            SecretServiceNames.service, "Collections", deadline: operation.deadline, decode: BasicReplies.property
        ).value(in: operation)
        guard case .paths(let paths) = value else {
            throw BusFailure.invalidReply("the Collections property is not a list of paths")
        }
        return paths
    }
}
