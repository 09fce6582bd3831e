import Glibc
import KeyringCrypto
import SwiftKeyring

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
/// import SwiftKeyring
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
/// on every other at once. Each call is bounded by the `StoreCall`'s one deadline
/// (`EtcdConfiguration.timeout` long when `Keyring` makes it): every member it asks,
/// every retry, every round of a write, a token renewal and the wait for this host's
/// memory file spend the same time, and no transfer outlives it.
/// A dead member or a lost leader is retried on the others within it, and a cluster
/// without quorum fails with `.serviceUnavailable` or `.timedOut` when it runs out.
///
/// What the cluster answers is bounded and checked: no answer's body passes
/// `EtcdClient.maximumAnswerBytes` (24 MiB), each value carries a version sealed with it, and
/// this host remembers (`EtcdConfiguration.stateFolder`) the header it first opened and the
/// highest version of each record it has seen, so a cluster handing back older data is refused
/// with `KeyringError.damaged` (the Fleets article says what remains possible).
public final class EtcdStore: CredentialStore {
    /// `etcd`, with the endpoints, the cluster's ID and the prefix.
    public var identity: StoreIdentity {
        StoreIdentity(
            kind: .etcd,
            details: [
                StoreDetail("endpoints", endpoints.map(\.absoluteString).joined(separator: ",")),
                StoreDetail("cluster", cluster),
                StoreDetail("prefix", prefix),
            ])
    }

    /// `EtcdConfiguration.timeout`: the bound on one call, every member, retry and round included.
    public var callTimeout: Duration { client.timeout }

    /// The members this store asks.
    public var endpoints: [URL] { client.endpoints }

    /// The largest Argon2id cost an etcd keyring's header may ask for: t = 4, m = 256 MiB, p = 4,
    /// about 1.0 to 1.1 s of one core and 256 MiB here (`Argon2idParameters.recommended`: 0.16 to 0.17 s, 64 MiB).
    ///
    /// Lower than the file store's bound (t = 10, m = 1 GiB), because the header is shared: whoever
    /// can write the prefix can plant a costly one, and every host of the fleet would spend that
    /// cost on every command before the key check fails. A header asking for more is refused before
    /// anything is derived; once a host has opened a keyring, a changed header is refused anyway.
    public static let maximumKeyDerivation = Argon2idParameters(iterations: 4, memoryKiB: 256 * 1024, parallelism: 4)

    private let client: EtcdClient
    private let keyspace: EtcdKeyspace
    private let keys: SealingKeys
    private let header: [UInt8]
    private let memory: EtcdHostMemory
    /// The cluster's ID as it answered when the store opened (its endpoints when it gave none).
    private let cluster: String
    /// The prefix of every key of this keyring.
    private let prefix: String
    /// `cluster <ID>, prefix <prefix>`, as errors name this keyring.
    private let name: String

    /// Opens the store: reads (or, for a new prefix, writes) the sealing header and checks the key against it.
    ///
    /// The talk with the cluster and the wait for this host's memory file are bounded by one
    /// deadline of `configuration.timeout`, as any call is. Deriving a key from a passphrase
    /// (Argon2id, whose cost `keyDerivation` bounds) is local work and not counted against it, so
    /// a costly derivation does not leave the header's write without time.
    ///
    /// The header's public part (format, cost, salt) is remembered on this host the first time it
    /// opens; afterwards a header that differs, or has gone, is refused before any key is derived.
    /// - Throws: `KeyringError.passphraseRequired` when no source gives a secret, `.wrongPassphrase`
    ///   when it is not the one the prefix was set up with, `.damaged` when the header was changed
    ///   (since this host first opened it, or so that it asks for more than `maximumKeyDerivation`),
    ///   `.serviceUnavailable` or `.timedOut` when the cluster does not answer within the bound,
    ///   `.invalidConfiguration` for a bad setting, `.backend` in the domain `libcurl` when libcurl
    ///   (loaded here, not at the program's start) is missing or too old, and the errors of
    ///   this host's memory file (`.insecurePermissions`, `.damaged`) when it cannot be trusted.
    public convenience init(configuration: EtcdConfiguration) throws {
        try self.init(configuration: configuration, call: .starting(timeout: configuration.timeout))
    }

    /// Opens the store within `call`'s deadline, as `init(configuration:)` does within one of its own:
    /// for a store opened by the first call that needs it (`LazyStore`), whose deadline the opening shares.
    /// - Throws: as `init(configuration:)`.
    public convenience init(configuration: EtcdConfiguration, call: StoreCall) throws {
        do {
            try self.init(opening: configuration, call: call)
        } catch let error as KeyringError {
            throw error.placed(in: .etcd)
        }
    }

    /// What a store of `configuration` is before it opens: `etcd`, with the endpoints and the
    /// prefix (the cluster's ID is known once a member answered).
    public static func identity(of configuration: EtcdConfiguration) -> StoreIdentity {
        StoreIdentity(
            kind: .etcd,
            details: [
                StoreDetail("endpoints", configuration.endpoints.map(\.absoluteString).joined(separator: ",")),
                StoreDetail("prefix", configuration.prefix),
            ])
    }

    /// Opens the keyring; the public init names etcd in the errors that pass out.
    private init(opening configuration: EtcdConfiguration, call: StoreCall) throws {
        var call = call
        if let problem = configuration.keyDerivation.problem ?? Self.costProblem(configuration.keyDerivation) {
            throw KeyringError.invalidConfiguration(setting: "keyDerivation", reason: problem)
        }
        try CurlConnection.loadLibrary()
        let secret = try FileStoreSecret.resolve(explicit: configuration.secret, environment: configuration.environment)
        let material = try SecretMaterial(secret)
        client = EtcdClient(
            endpoints: configuration.endpoints, timeout: configuration.timeout, login: try Self.login(configuration),
            tls: configuration.tls, proxy: configuration.proxy)

        let headerKey = EtcdKeyspace.headerKey(prefix: configuration.prefix)
        let read = try client.call(
            "/v3/kv/range", RangeRequest(key: headerKey), as: RangeResponse.self, operation: "reading the keyring header",
            call: call)
        // The cluster's ID, not the endpoints, names it: a host may list its members otherwise later.
        let cluster = read.header?.clusterID ?? configuration.endpoints.map(\.absoluteString).sorted().joined(separator: ",")
        let name = "cluster \(cluster), prefix \(configuration.prefix)"
        memory = EtcdHostMemory(folder: configuration.resolvedStateFolder, cluster: cluster, prefix: configuration.prefix)
        let pinned = try memory.read().header
        var stored = read.kvs?.first?.value?.bytes
        if stored == nil && pinned != nil {
            // Another store of this host (another process, or a thread beside this one) may have made
            // the header and pinned it between the read above and the host memory's: the header is
            // then there now. Read once more (a linearizable read) before calling it gone: two stores
            // opening a new keyring at once saw this in the failover test.
            stored = try client.call(
                "/v3/kv/range", RangeRequest(key: headerKey), as: RangeResponse.self,
                operation: "reading the keyring header", call: call
            ).kvs?.first?.value?.bytes
        }
        var made: SealingKeys?
        if stored == nil {
            if pinned != nil {
                throw KeyringError.damaged(
                    reason: "the keyring header this host first opened (\(name)) is gone from etcd, so its records "
                        + "cannot be opened; if the keyring was removed on purpose, remove this keyring's entry from "
                        + "\(memory.path) (or the whole file) and open it again")
            }
            let (fresh, freshKeys) = try call.deadline.notCounting {
                try material.newHeader(parameters: configuration.keyDerivation)
            }
            // Only if no other host wrote one meanwhile; otherwise theirs is the header.
            let answer = try client.call(
                "/v3/kv/txn",
                TxnRequest(
                    compare: [Compare(key: headerKey, target: "CREATE", createRevision: EtcdInt(0))],
                    success: [RequestOp(requestPut: PutRequest(key: headerKey, value: EtcdBytes(fresh.encoded)))],
                    failure: [RequestOp(requestRange: RangeRequest(key: headerKey))]
                ),
                as: TxnResponse.self, operation: "creating the keyring header", call: call)
            if answer.succeeded == true {
                stored = fresh.encoded
                made = freshKeys
            } else {
                stored = answer.responses?.first?.responseRange?.kvs?.first?.value?.bytes
            }
        }
        guard let stored else {
            throw KeyringError.damaged(reason: "the keyring header in etcd vanished while it was read")
        }
        let publicPart = Data(stored.prefix(EtcdHostMemory.headerPrefix)).base64EncodedString()
        if let pinned, pinned != publicPart {
            let cost = (try? KeyedHeader.decode(stored))?.parameters.map { " (it now asks for \($0))" } ?? ""
            throw KeyringError.damaged(
                reason: "the keyring header in etcd (\(name)) is not the one this host first opened\(cost), and "
                    + "nothing was derived from it; if the keyring was made anew on purpose, remove this keyring's entry "
                    + "from \(memory.path) (or the whole file) and open it again")
        }
        let keys: SealingKeys
        if let made {
            // Derived from this very header a moment ago: no second Argon2id, nothing to verify.
            keys = made
        } else {
            let header = try KeyringError.translatingCrypto { try KeyedHeader.decode(stored) }
            if let parameters = header.parameters, let problem = Self.costProblem(parameters) {
                throw KeyringError.damaged(
                    reason: "the keyring header in etcd (\(name)) asks for \(parameters), and \(problem); "
                        + "nothing was derived from it")
            }
            // Argon2id is local work, not counted, so the host memory's lock below still gets what is left.
            keys = try call.deadline.notCounting {
                try KeyringError.translatingCrypto {
                    let keys = try SealingKeys(master: try material.masterKey(for: header), salt: header.salt)
                    try header.verify(keys)
                    return keys
                }
            }
        }
        if pinned == nil {
            try memory.update(call: call) { $0.header = publicPart }
        }
        self.keys = keys
        self.header = stored
        self.cluster = cluster
        self.prefix = configuration.prefix
        self.name = name
        self.keyspace = EtcdKeyspace(
            prefix: configuration.prefix,
            namesKey: try KeyringError.translatingCrypto { try keys.derive(info: EtcdKeyspace.namesLabel) })
    }

    /// Why a header's Argon2id cost is more than an etcd store accepts, or `nil`.
    static func costProblem(_ parameters: Argon2idParameters) -> String? {
        let maximum = maximumKeyDerivation
        guard
            parameters.iterations > maximum.iterations || parameters.memoryKiB > maximum.memoryKiB
                || parameters.parallelism > maximum.parallelism
        else { return nil }
        return "an etcd keyring's cost is at most \(maximum), as every host of a fleet pays it"
    }

    /// Reads the record under `id` with one linearizable range request, opens it, and checks that it
    /// is not older than what this host has already seen of it.
    /// - Throws: `.damaged` when the value does not authenticate (changed, or moved from another key),
    ///   or is older than a version this host has seen, or comes back after this host saw it removed.
    public func record(for id: RecordID, call: StoreCall) throws -> StoredRecord? {
        return try KeyringError.translatingCrypto {
            let key = try keyspace.recordKey(id)
            let hash = EtcdKeyspace.recordHash(key)
            // Read before the cluster is asked: what it records was seen before this read began, so
            // another process of this host writing meanwhile is never taken for a rollback.
            let seen = try memory.read()
            let answer = try client.call(
                "/v3/kv/range", RangeRequest(key: key), as: RangeResponse.self, operation: "reading a record", call: call)
            guard let bytes = answer.kvs?.first?.value?.bytes else {
                // Gone at this revision: a value from before it coming back later would be a replay.
                if seen.records[hash] != nil, let revision = answer.header?.revision?.value, revision > 0 {
                    try memory.record([hash: .init(version: UInt64(revision), removed: true)], call: call)
                }
                return nil
            }
            let value = try EtcdValue(decoding: bytes)
            let record = try RecordSealing.open(
                value.sealed, id: id, keys: keys, header: value.associatedData(header: header, key: key))
            try seen.check(hash, version: value.version, name: "the record \(id)", cluster: name)
            try remember([hash: value.version], after: seen, call: call)
            return record
        }
    }

    /// Seals `record` at a version above any the record had, and writes it in one transaction that
    /// compares the key's last revision.
    ///
    /// The version is the cluster's revision when the record was last read, plus one (or more, when
    /// the record or this host has seen a higher one): above every version any earlier value of the
    /// record had, even one removed since, as etcd's revision only grows.
    public func save(_ record: StoredRecord, call: StoreCall) throws {
        return try KeyringError.translatingCrypto {
            // The call's one deadline for every round, and for this host's memory: writers racing on
            // one key cannot keep a call going, and a round that waited on a silent member (or on
            // another process's lock of the memory file) leaves the next only what is left.
            let key = try keyspace.recordKey(record.id)
            let hash = EtcdKeyspace.recordHash(key)
            let seen = try memory.read().records[hash]?.version ?? 0
            let read = try client.call(
                "/v3/kv/range", RangeRequest(key: key), as: RangeResponse.self, operation: "storing a record", call: call)
            var current = read.kvs?.first
            var revision = read.header?.revision?.value ?? 0
            while true {
                let highest = max(UInt64(max(revision, 0)), try authenticVersion(of: current), seen)
                guard highest < UInt64.max else {
                    throw KeyringError.damaged(reason: "etcd (\(name)) holds a record at the last version there is")
                }
                let version = highest + 1
                let value = EtcdValue.encode(
                    version: version,
                    sealed: try RecordSealing.seal(
                        record, keys: keys, header: EtcdValue.associatedData(header: header, key: key, version: version)
                    ).encoded)
                // Replace exactly the revision last seen: a retry after an answer that was lost
                // finds its own value there (its nonce makes it unique) and stops.
                let answer = try client.call(
                    "/v3/kv/txn",
                    TxnRequest(
                        compare: [Compare(key: key, target: "MOD", modRevision: EtcdInt(current?.modRevision?.value ?? 0))],
                        success: [RequestOp(requestPut: PutRequest(key: key, value: EtcdBytes(value)))],
                        failure: [RequestOp(requestRange: RangeRequest(key: key))]
                    ),
                    as: TxnResponse.self, operation: "storing a record", call: call)
                let now = answer.responses?.first?.responseRange?.kvs?.first
                if answer.succeeded == true || now?.value?.bytes == value {
                    try memory.record([hash: .init(version: version, removed: false)], call: call)
                    return
                }
                current = now
                revision = answer.header?.revision?.value ?? revision
                try call.checkCancellation()
                guard !call.deadline.hasPassed else {
                    throw call.deadline.timedOut("storing a record (other writers kept changing it)")
                }
            }
        }
    }

    /// Deletes the record's key; `true` when there was one. This host remembers the revision of the
    /// removal, so a value from before it that comes back is refused.
    @discardableResult
    public func removeRecord(for id: RecordID, call: StoreCall) throws -> Bool {
        return try KeyringError.translatingCrypto {
            let key = try keyspace.recordKey(id)
            let answer = try client.call(
                "/v3/kv/deleterange", DeleteRangeRequest(key: key),
                as: DeleteRangeResponse.self, operation: "removing a record", call: call)
            let removed = (answer.deleted?.value ?? 0) > 0
            if let revision = answer.header?.revision?.value, revision > 0,
                try removed || memory.read().records[EtcdKeyspace.recordHash(key)] != nil
            {
                try memory.record([EtcdKeyspace.recordHash(key): .init(version: UInt64(revision), removed: true)], call: call)
            }
            return removed
        }
    }

    /// Reads every record of the service (of one kind, or all) in pages and opens only their entries
    /// (never a secret); keys in the service's range that are not of a record's exact shape (another
    /// keyring's, under a prefix chosen inside this one's) are passed over.
    /// - Throws: `.damaged` as `record(for:)` does, for any record listed.
    public func summaries(service: String, kind: RecordKind?, call: StoreCall) throws -> [RecordSummary] {
        return try KeyringError.translatingCrypto {
            let prefix = try kind.map { try keyspace.kindPrefix(service: service, kind: $0) } ?? keyspace.servicePrefix(service)
            let cipher = try AESGCM(key: keys.entry)
            let seen = try memory.read()
            var summaries: [RecordSummary] = []
            var versions: [String: UInt64] = [:]
            try client.rangePages(under: prefix, keysOnly: false, operation: "listing records", call: call) { pairs in
                for pair in pairs {
                    guard try keyspace.isRecordKey(pair.key, service: service, kind: kind), let bytes = pair.value?.bytes else {
                        continue
                    }
                    let value = try EtcdValue(decoding: bytes)
                    let (id, metadata) = try RecordSealing.openEntry(
                        value.sealed.sealedEntry, cipher: cipher, header: value.associatedData(header: header, key: pair.key),
                        service: service)
                    guard id.service == service, kind == nil || id.kind == kind else {
                        throw KeyringError.damaged(reason: "a record in etcd names another service than its key")
                    }
                    let hash = EtcdKeyspace.recordHash(pair.key)
                    try seen.check(hash, version: value.version, name: "the record \(id)", cluster: name)
                    versions[hash] = value.version
                    summaries.append(RecordSummary(id: id, metadata: metadata))
                }
            }
            try remember(versions, after: seen, call: call)
            return summaries
        }
    }

    /// Deletes the service's records (or one kind's), and nothing else: the keys of the service's
    /// range are listed, and only those of a record's exact shape are deleted. Another keyring whose
    /// prefix lies inside this service's range keeps its header and records, and is not counted.
    ///
    /// When every key listed is a record's, one transaction deletes the range, on the condition that
    /// no key in it changed since the listing (so none was added); otherwise the records are
    /// deleted by key, in transactions of `deletionBatch` keys.
    /// - Returns: how many records were deleted.
    @discardableResult
    public func removeAll(service: String, kind: RecordKind?, call: StoreCall) throws -> Int {
        return try KeyringError.translatingCrypto {
            let prefix = try kind.map { try keyspace.kindPrefix(service: service, kind: $0) } ?? keyspace.servicePrefix(service)
            var records: [EtcdBytes] = []
            var others = false
            let listed = try client.rangePages(
                under: prefix, keysOnly: true, operation: "listing a service's records", call: call
            ) { pairs in
                for pair in pairs {
                    if try keyspace.isRecordKey(pair.key, service: service, kind: kind) {
                        records.append(pair.key)
                    } else {
                        others = true
                    }
                }
            }
            guard !records.isEmpty else { return 0 }
            var marks: [String: EtcdHostMemory.Mark] = [:]
            if !others, let listed {
                let end = EtcdKeyspace.rangeEnd(of: prefix)
                let answer = try client.call(
                    "/v3/kv/txn",
                    TxnRequest(
                        compare: [
                            Compare(
                                key: prefix, result: "LESS", target: "MOD", modRevision: EtcdInt(listed + 1), rangeEnd: end)
                        ],
                        success: [RequestOp(requestDeleteRange: DeleteRangeRequest(key: prefix, rangeEnd: end))], failure: []),
                    as: TxnResponse.self, operation: "removing a service's records", call: call)
                if answer.succeeded == true {
                    let revision = UInt64(max(answer.header?.revision?.value ?? 0, 0))
                    if revision > 0 {
                        for key in records { marks[EtcdKeyspace.recordHash(key)] = .init(version: revision, removed: true) }
                    }
                    try memory.record(marks, call: call)
                    return Int(answer.responses?.first?.responseDeleteRange?.deleted?.value ?? 0)
                }
            }
            var deleted = 0
            for start in stride(from: 0, to: records.count, by: Self.deletionBatch) {
                let batch = records[start..<min(start + Self.deletionBatch, records.count)]
                let answer = try client.call(
                    "/v3/kv/txn",
                    TxnRequest(
                        compare: [], success: batch.map { RequestOp(requestDeleteRange: DeleteRangeRequest(key: $0)) },
                        failure: []),
                    as: TxnResponse.self, operation: "removing a service's records", call: call)
                let revision = UInt64(max(answer.header?.revision?.value ?? 0, 0))
                for (key, response) in zip(batch, answer.responses ?? []) {
                    guard (response.responseDeleteRange?.deleted?.value ?? 0) > 0 else { continue }
                    deleted += 1
                    if revision > 0 { marks[EtcdKeyspace.recordHash(key)] = .init(version: revision, removed: true) }
                }
            }
            try memory.record(marks, call: call)
            return deleted
        }
    }

    /// The version of the value in `pair` when it opens under this keyring's key, else 0: a version
    /// anyone could have written (the cluster, for one) must not steer the next write's number.
    private func authenticVersion(of pair: KeyValue?) throws -> UInt64 {
        guard let pair, let bytes = pair.value?.bytes, let value = try? EtcdValue(decoding: bytes) else { return 0 }
        let opens = try? RecordSealing.openEntry(
            value.sealed.sealedEntry, cipher: try AESGCM(key: keys.entry),
            header: value.associatedData(header: header, key: pair.key))
        return opens == nil ? 0 : value.version
    }

    /// Keys per deleting transaction: below etcd's default `--max-txn-ops` (128).
    static let deletionBatch = 100

    /// Records `versions` (by record hash) where they are higher than `seen` says, in one write.
    private func remember(_ versions: [String: UInt64], after seen: EtcdHostMemory.Seen, call: StoreCall) throws {
        let marks = versions.filter { hash, version in
            // Version 0 (a value from before versions) refuses nothing, so it is not written down.
            version > 0 && (seen.records[hash].map { $0.removed || $0.version < version } ?? true)
        }.mapValues { EtcdHostMemory.Mark(version: $0, removed: false) }
        try memory.record(marks, call: call)
    }

    static func login(_ configuration: EtcdConfiguration) throws -> EtcdClient.Login? {
        guard let user = configuration.user, let passwordFile = configuration.passwordFile else { return nil }
        // etcd's login takes the password as JSON text, so it becomes a String here at the
        // latest; the bytes read into secure memory are trimmed without another copy.
        let file = try SecretFile.read(
            passwordFile.path, field: EtcdConfiguration.passwordFileVariable, what: "the etcd password file")
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
