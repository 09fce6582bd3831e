import Glibc
import Keyring

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `CredentialStore` in an etcd v3 cluster, for a fleet of hosts that share credentials.
///
/// Every value is sealed on the client with the encrypted file store's AEAD
/// (AES-256-GCM) under a key from the same sources as the file store, and every
/// name (service, key) reaches etcd only as a keyed hash, so etcd, its backups and
/// anyone who can read them see sizes and counts, nothing else. With a passphrase,
/// the Argon2id salt and cost and a key check live in etcd under the prefix, so
/// every host derives the same key and a wrong one fails with
/// `KeyringError.wrongPassphrase` before anything is decrypted.
///
/// ```swift
/// import Keyring
/// import KeyringEtcd
///
/// let store = try EtcdStore(configuration: EtcdConfiguration(
///     endpoints: [URL(string: "http://10.0.0.1:2379")!, URL(string: "http://10.0.0.2:2379")!],
///     secret: .keyFile(URL(fileURLWithPath: "/etc/myapp/fleet.key"))))
/// let keyring = try Keyring(service: "com.example.deploy", store: store)
/// try keyring.set(credentials, forKey: "registry")    // readable on every host at once
/// ```
///
/// Reads are linearizable (etcd's default), so a record set on one host is read
/// on every other at once. Each call is bounded by `EtcdConfiguration.timeout`, as
/// one deadline from the call's start: every member it asks, every retry, every round
/// of a write and a token renewal spend the same time, and no transfer outlives it.
/// A dead member or a lost leader is retried on the others within it, and a cluster
/// without quorum fails with `.serviceUnavailable` or `.timedOut` when it runs out.
public final class EtcdStore: CredentialStore {
    /// `etcd`.
    public let name = "etcd"
    /// The members this store asks.
    public var endpoints: [URL] { client.endpoints }

    private let client: EtcdClient
    private let keyspace: EtcdKeyspace
    private let keys: FileKeys
    private let header: [UInt8]

    /// Opens the store: reads (or, for a new prefix, writes) the sealing header and checks the key against it.
    ///
    /// The talk with the cluster is bounded by `configuration.timeout`, as any call is. Deriving a
    /// key from a passphrase (Argon2id, whose cost `keyDerivation` bounds) is local work and not
    /// counted against it, so a costly derivation does not leave the header's write without time.
    /// - Throws: `KeyringError.passphraseRequired` when no source gives a secret, `.wrongPassphrase`
    ///   when it is not the one the prefix was set up with, `.damaged` when the header was changed,
    ///   `.serviceUnavailable` or `.timedOut` when the cluster does not answer within the bound,
    ///   `.invalidRecord` for a bad setting, `.backend` in the domain `libcurl` when libcurl (loaded
    ///   here, not at the program's start) is missing or too old.
    public init(configuration: EtcdConfiguration) throws {
        var deadline = Deadline(configuration.timeout)
        if let problem = configuration.keyDerivation.problem {
            throw KeyringError.invalidConfiguration(setting: "keyDerivation", reason: problem)
        }
        try CurlConnection.loadLibrary()
        let secret = try FileStoreSecret.resolve(explicit: configuration.secret, environment: configuration.environment)
        let material = try SecretMaterial(secret)
        client = EtcdClient(
            endpoints: configuration.endpoints, timeout: configuration.timeout, login: try Self.login(configuration),
            tls: configuration.tls)

        let headerKey = EtcdKeyspace.headerKey(prefix: configuration.prefix)
        var stored = try Self.value(of: headerKey, client: client, deadline: deadline)
        var made: (FileHeader, FileKeys)?
        if stored == nil {
            let (fresh, freshKeys) = try deadline.notCounting {
                try FileHeader.new(for: material, parameters: configuration.keyDerivation)
            }
            // Only if no other host wrote one meanwhile; otherwise theirs is the header.
            let answer = try client.call(
                "/v3/kv/txn",
                TxnRequest(
                    compare: [Compare(key: headerKey, target: "CREATE", createRevision: EtcdInt(0))],
                    success: [RequestOp(requestPut: PutRequest(key: headerKey, value: EtcdBytes(fresh.encoded)))],
                    failure: [RequestOp(requestRange: RangeRequest(key: headerKey))]
                ),
                as: TxnResponse.self, operation: "creating the keyring header", deadline: deadline)
            if answer.succeeded == true {
                stored = fresh.encoded
                made = (fresh, freshKeys)
            } else {
                stored = answer.responses?.first?.responseRange?.kvs?.first?.value?.bytes
            }
        }
        guard let stored else {
            throw KeyringError.damaged(reason: "the keyring header in etcd vanished while it was read")
        }
        let keys: FileKeys
        if let (_, freshKeys) = made {
            // Derived from this very header a moment ago: no second Argon2id, nothing to verify.
            keys = freshKeys
        } else {
            let header = try FileHeader.decode(stored)
            keys = try FileKeys(master: try material.masterKey(for: header), salt: header.salt)
            try header.verify(keys)
        }
        self.keys = keys
        self.header = stored
        self.keyspace = EtcdKeyspace(
            prefix: configuration.prefix, namesKey: try keys.derive(info: EtcdKeyspace.namesLabel))
    }

    /// Reads the record under `id` with one linearizable range request and opens it.
    /// - Throws: `.damaged` when the value does not authenticate (changed, or moved from another key).
    public func record(for id: RecordID) throws -> StoredRecord? {
        let deadline = Deadline(client.timeout)
        let key = try keyspace.recordKey(id)
        guard let value = try Self.value(of: key, client: client, deadline: deadline) else { return nil }
        return try RecordSealing.open(
            try SealedRecord(standalone: value), id: id, keys: keys, header: associatedData(key))
    }

    /// Seals `record` and writes it in one transaction that compares the key's last revision.
    public func save(_ record: StoredRecord) throws {
        // One deadline for every round: writers racing on one key cannot keep a call going,
        // and a round that waited on a silent member leaves the next only what is left.
        let deadline = Deadline(client.timeout)
        let key = try keyspace.recordKey(record.id)
        let sealed = Array(try RecordSealing.seal(record, keys: keys, header: associatedData(key)).encoded)
        // Replace exactly the revision last seen: a retry after an answer that was lost
        // finds its own value there (its nonce makes it unique) and stops.
        var expected: Int64 = 0
        while true {
            let answer = try client.call(
                "/v3/kv/txn",
                TxnRequest(
                    compare: [Compare(key: key, target: "MOD", modRevision: EtcdInt(expected))],
                    success: [RequestOp(requestPut: PutRequest(key: key, value: EtcdBytes(sealed)))],
                    failure: [RequestOp(requestRange: RangeRequest(key: key))]
                ),
                as: TxnResponse.self, operation: "storing a record", deadline: deadline)
            if answer.succeeded == true { return }
            let current = answer.responses?.first?.responseRange?.kvs?.first
            if current?.value?.bytes == sealed { return }
            expected = current?.modRevision?.value ?? 0
            try OperationCancellation.check()
            guard !deadline.hasPassed else {
                throw deadline.timedOut("storing a record (other writers kept changing it)")
            }
        }
    }

    /// Deletes the record's key; `true` when there was one.
    @discardableResult
    public func removeRecord(for id: RecordID) throws -> Bool {
        let deadline = Deadline(client.timeout)
        let answer = try client.call(
            "/v3/kv/deleterange", DeleteRangeRequest(key: try keyspace.recordKey(id)),
            as: DeleteRangeResponse.self, operation: "removing a record", deadline: deadline)
        return (answer.deleted?.value ?? 0) > 0
    }

    /// Reads every record under the service's hashed prefix and opens only their entries (never a secret).
    public func summaries(service: String, kind: RecordKind?) throws -> [RecordSummary] {
        let deadline = Deadline(client.timeout)
        let prefix = try kind.map { try keyspace.kindPrefix(service: service, kind: $0) } ?? keyspace.servicePrefix(service)
        let answer = try client.call(
            "/v3/kv/range", RangeRequest(key: prefix, rangeEnd: EtcdKeyspace.rangeEnd(of: prefix)),
            as: RangeResponse.self, operation: "listing records", deadline: deadline)
        let cipher = try AESGCM(key: keys.entry)
        return try (answer.kvs ?? []).compactMap { pair -> RecordSummary? in
            guard let value = pair.value?.bytes else { return nil }
            let (id, metadata) = try RecordSealing.openEntry(
                try SealedRecord(standalone: value).sealedEntry, cipher: cipher, header: associatedData(pair.key),
                service: service)
            guard id.service == service, kind == nil || id.kind == kind else {
                throw KeyringError.damaged(reason: "a record in etcd names another service than its key")
            }
            return RecordSummary(id: id, metadata: metadata)
        }
    }

    /// Deletes the service's hashed prefix (or one kind's) in one range delete: nothing else is touched.
    @discardableResult
    public func removeAll(service: String, kind: RecordKind?) throws -> Int {
        let deadline = Deadline(client.timeout)
        let prefix = try kind.map { try keyspace.kindPrefix(service: service, kind: $0) } ?? keyspace.servicePrefix(service)
        let answer = try client.call(
            "/v3/kv/deleterange", DeleteRangeRequest(key: prefix, rangeEnd: EtcdKeyspace.rangeEnd(of: prefix)),
            as: DeleteRangeResponse.self, operation: "removing a service's records", deadline: deadline)
        return Int(answer.deleted?.value ?? 0)
    }

    /// What each sealed value binds: the header and its own etcd key, so a value
    /// copied to another key, or under another header, does not open.
    private func associatedData(_ key: EtcdBytes) -> [UInt8] {
        header + key.bytes
    }

    private static func value(of key: EtcdBytes, client: EtcdClient, deadline: Deadline) throws -> [UInt8]? {
        try client.call(
            "/v3/kv/range", RangeRequest(key: key), as: RangeResponse.self, operation: "reading a record", deadline: deadline
        ).kvs?.first?.value?.bytes
    }

    static func login(_ configuration: EtcdConfiguration) throws -> EtcdClient.Login? {
        guard let user = configuration.user, let passwordFile = configuration.passwordFile else { return nil }
        // etcd's login takes the password as JSON text, so it becomes a String here at the
        // latest; the bytes read into secure memory are trimmed without another copy.
        let file = try SecretFile.read(passwordFile.path, field: EtcdConfiguration.passwordFileVariable)
        let text = file.withBytes { raw -> String? in
            var bytes = raw[...]
            if bytes.last == UInt8(ascii: "\n") { bytes = bytes.dropLast() }
            if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
            return bytes.isEmpty ? nil : String(validating: bytes, as: UTF8.self)
        }
        guard let password = text else {
            throw KeyringError.invalidConfiguration(
                setting: EtcdConfiguration.passwordFileVariable,
                reason: "the file \(passwordFile.path) is empty or not UTF-8 text")
        }
        return EtcdClient.Login(user: user, password: password)
    }
}
