#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A store in the kernel's key retention service (`keyrings(7)`): nothing touches the disk,
/// and the kernel forgets every record at reboot.
///
/// Each service's records are keys in a keyring of their own, `swift-keyring:SERVICE`,
/// linked into the user's persistent keyring (the default) or the login session's
/// (``KernelKeyringScope``). Each record is one key of type `user`, named by its kind and key
/// (`credentials:github`), whose payload is the record: username, URL, flags and password.
/// Keys and keyrings are the possessor's and the owning user's alone; the user's group and
/// other users get nothing, not even their names.
///
/// The kernel limits what a user keeps: `/proc/sys/kernel/keys/maxkeys` keys (200) and
/// `maxbytes` bytes (20,000) for an ordinary user, `root_maxkeys` and `root_maxbytes` for root.
/// A record takes one key and about its password, username, URL, key and service in bytes;
/// a service's keyring takes one more. A write past the quota fails with
/// ``KeyringError/Code/backend`` naming those limits, and changes nothing.
/// Where the kernel refuses the calls (Docker's default seccomp profile blocks `add_key` and
/// `keyctl`), opening the store fails and names the fallback: the encrypted file. A kernel
/// before Linux 5.1 has no `KEYCTL_MOVE`: there the first write of a service fails, naming the
/// kernel needed, and writes nothing.
///
/// Never chosen by ``StoreChoice/auto``: ask for it with ``StoreChoice/kernel``,
/// `SWIFT_KEYRING_BACKEND=kernel` or the tool's `--backend kernel`.
///
/// ```swift
/// let keyring = try Keyring(service: "com.example.mail", store: KernelKeyringStore())
/// ```
public final class KernelKeyringStore: CredentialStore {
    /// Which of the user's keyrings holds the records.
    public let scope: KernelKeyringScope

    /// What to use where the kernel refuses the calls.
    private static let fallback = "use the encrypted file instead (--backend file, SWIFT_KEYRING_BACKEND=file)"

    /// Opens the store in `scope`'s keyring.
    /// - Throws: `.backend` (domain `kernel keyring`) when the kernel refuses the calls, naming the fallback.
    public init(scope: KernelKeyringScope = .persistent) throws {
        self.scope = scope
        _ = try kernel { try parent() }
    }

    /// `kernel (keyring: persistent)`.
    public var identity: StoreIdentity {
        StoreIdentity(kind: .kernel, details: [StoreDetail("keyring", scope.rawValue)])
    }

    /// Returns the record stored under `id`, or `nil`.
    public func record(for id: RecordID, call: StoreCall) throws -> StoredRecord? {
        try call.checkCancellation()
        let ringName = try KernelRecordName.keyring(of: id.service)
        let name = try KernelRecordName.record(id)
        return try kernel {
            guard let ring = try KernelKeyring.findKeyring(ringName, in: parent()) else { return nil }
            // A writer replacing a record kept in parts removes the old parts once its own are in:
            // a reader caught between reads the record's key again.
            for _ in 0..<8 {
                guard let key = try KernelKeyring.find(name, in: ring), var bytes = try KernelKeyring.payload(of: key) else {
                    return nil
                }
                defer { bytes.wipe() }
                var payload = try KernelRecordPayload.decode(bytes, service: id.service)
                guard payload.id == id else {
                    payload.wipeSecret()
                    throw KeyringError.damaged(reason: "the kernel keyring's key for \(id) holds another record")
                }
                switch payload.secret {
                case .whole(let secret):
                    return StoredRecord(id: id, metadata: payload.metadata, secret: secret)
                case .parts(let generation, let length, let count):
                    if let secret = try readParts(generation, length: length, count: count, in: ring) {
                        return StoredRecord(id: id, metadata: payload.metadata, secret: secret)
                    }
                }
            }
            throw KeyringError.damaged(reason: "the parts of \(id) in the kernel keyring are missing")
        }
    }

    /// Stores `record`, replacing any record with the same identity in one step.
    public func save(_ record: StoredRecord, call: StoreCall) throws {
        try call.checkCancellation()
        let ringName = try KernelRecordName.keyring(of: record.id.service)
        let name = try KernelRecordName.record(record.id)
        try kernel {
            // A `removeAll` in another process may invalidate the service's keyring between
            // finding it and writing into it: the write then goes to a new one.
            for attempt in 0..<2 {
                let ring = try KernelKeyring.findOrMakeKeyring(
                    ringName, in: parent(), permissions: KernelKeyring.possessorAndUser)
                do {
                    try write(record, named: name, in: ring)
                    return
                } catch let failure as KernelKeyFailure where failure.isAbsent && attempt == 0 {
                    continue
                }
            }
        }
    }

    /// Removes the record under `id`; `false` when there was none.
    @discardableResult
    public func removeRecord(for id: RecordID, call: StoreCall) throws -> Bool {
        try call.checkCancellation()
        let ringName = try KernelRecordName.keyring(of: id.service)
        let name = try KernelRecordName.record(id)
        return try kernel {
            guard let ring = try KernelKeyring.findKeyring(ringName, in: parent()),
                let key = try KernelKeyring.find(name, in: ring)
            else { return false }
            return try remove(key, service: id.service, in: ring)
        }
    }

    /// The records of `service` (and `kind`, when given), sorted by key.
    public func summaries(service: String, kind: RecordKind?, call: StoreCall) throws -> [RecordSummary] {
        try call.checkCancellation()
        let ringName = try KernelRecordName.keyring(of: service)
        return try kernel {
            guard let ring = try KernelKeyring.findKeyring(ringName, in: parent()) else { return [] }
            return try records(of: service, in: ring, kind: kind).compactMap { key, named in
                guard var bytes = try KernelKeyring.payload(of: key) else { return nil }
                defer { bytes.wipe() }
                let payload = try KernelRecordPayload.decode(bytes, service: service, secret: false)
                guard payload.id == named else {
                    throw KeyringError.damaged(reason: "the kernel keyring's key for \(named) holds another record")
                }
                return RecordSummary(id: named, metadata: payload.metadata)
            }
            .sorted { ($0.id.key, $0.id.kind.rawValue) < ($1.id.key, $1.id.kind.rawValue) }
        }
    }

    /// Removes the records of `service` (and `kind`, when given); with no kind, the service's
    /// whole keyring goes at once.
    @discardableResult
    public func removeAll(service: String, kind: RecordKind?, call: StoreCall) throws -> Int {
        try call.checkCancellation()
        let ringName = try KernelRecordName.keyring(of: service)
        return try kernel {
            guard let ring = try KernelKeyring.findKeyring(ringName, in: parent()) else { return 0 }
            let doomed = try records(of: service, in: ring, kind: kind)
            guard kind != nil else {
                // Invalidating the keyring takes every key in it, parts too, in one step; a
                // writer that found it before writes into a new one (see `save`).
                try KernelKeyring.invalidate(ring)
                return doomed.count
            }
            var removed = 0
            for (key, _) in doomed {
                if try remove(key, service: service, in: ring) { removed += 1 }
            }
            return removed
        }
    }

    /// The keyring the service keyrings are linked into.
    private func parent() throws -> Int32 {
        switch scope {
        case .persistent: try KernelKeyring.persistentKeyring()
        case .session: try KernelKeyring.sessionKeyring()
        }
    }

    /// The record keys in `ring` (of `kind`, when given), with the records they name.
    private func records(of service: String, in ring: Int32, kind: RecordKind?) throws -> [(Int32, RecordID)] {
        try KernelKeyring.contents(of: ring).compactMap { key in
            guard let described = KernelKeyring.describe(key), described.type == "user",
                let named = KernelRecordName.parse(described.description),
                kind == nil || named.kind == kind
            else { return nil }
            return (key, RecordID(service: service, key: named.key, kind: named.kind))
        }
    }

    /// Writes `record` as the key `name` in `ring`: its parts first when it needs them, then
    /// its key in one step, then the parts of the record it replaced.
    private func write(_ record: StoredRecord, named name: String, in ring: Int32) throws {
        let replaced = try partsOfRecord(named: name, service: record.id.service, in: ring)
        if var payload = KernelRecordPayload.whole(record) {
            defer { payload.wipe() }
            _ = try payload.withUnsafeBytes { bytes in
                try KernelKeyring.addUserKey(name, payload: bytes, to: ring, permissions: KernelKeyring.possessorAndUser)
            }
        } else {
            let generation = UInt64.random(in: 1...UInt64.max)
            let chunks = stride(from: 0, to: record.secret.count, by: KernelRecordPayload.partSize).map {
                $0..<min($0 + KernelRecordPayload.partSize, record.secret.count)
            }
            var written: [Int32] = []
            do {
                for (index, range) in chunks.enumerated() {
                    written.append(
                        try record.secret[range].withUnsafeBytes { bytes in
                            try KernelKeyring.addUserKey(
                                KernelRecordName.part(generation, index), payload: bytes, to: ring,
                                permissions: KernelKeyring.possessorAndUser)
                        })
                }
                let head = KernelRecordPayload.head(record, generation: generation, count: chunks.count)
                _ = try head.withUnsafeBytes { bytes in
                    try KernelKeyring.addUserKey(name, payload: bytes, to: ring, permissions: KernelKeyring.possessorAndUser)
                }
            } catch {
                // Parts no record points to would only take the user's quota.
                for part in written { KernelKeyring.remove(part) }
                throw error
            }
        }
        if let replaced { removeParts(replaced.generation, count: replaced.count, in: ring) }
    }

    /// Removes the record key `key` in `ring`, then its parts; `false` when it was gone already.
    private func remove(_ key: Int32, service: String, in ring: Int32) throws -> Bool {
        var parts: (generation: UInt64, count: Int)?
        if var bytes = try KernelKeyring.payload(of: key) {
            defer { bytes.wipe() }
            let payload = try KernelRecordPayload.decode(bytes, service: service, secret: false)
            if case .parts(let generation, _, let count) = payload.secret { parts = (generation, count) }
        }
        do {
            try KernelKeyring.invalidate(key)
        } catch let failure as KernelKeyFailure where failure.isAbsent {
            return false
        }
        if let parts { removeParts(parts.generation, count: parts.count, in: ring) }
        return true
    }

    /// The parts the record key `name` in `ring` points to; `nil` when it holds its secret itself, or is absent.
    private func partsOfRecord(named name: String, service: String, in ring: Int32) throws -> (generation: UInt64, count: Int)? {
        guard let key = try KernelKeyring.find(name, in: ring), var bytes = try KernelKeyring.payload(of: key) else {
            return nil
        }
        defer { bytes.wipe() }
        guard let payload = try? KernelRecordPayload.decode(bytes, service: service, secret: false) else { return nil }
        guard case .parts(let generation, _, let count) = payload.secret else { return nil }
        return (generation, count)
    }

    /// The secret kept in parts; `nil` when a part is gone (a writer replaced the record meanwhile).
    private func readParts(_ generation: UInt64, length: Int, count: Int, in ring: Int32) throws -> [UInt8]? {
        var secret: [UInt8] = []
        secret.reserveCapacity(length)
        for index in 0..<count {
            guard let key = try KernelKeyring.find(KernelRecordName.part(generation, index), in: ring),
                var part = try KernelKeyring.payload(of: key)
            else {
                secret.wipe()
                return nil
            }
            secret.append(contentsOf: part)
            part.wipe()
        }
        guard secret.count == length else {
            secret.wipe()
            throw KeyringError.damaged(reason: "a record's parts in the kernel keyring add up to another length")
        }
        return secret
    }

    private func removeParts(_ generation: UInt64, count: Int, in ring: Int32) {
        for index in 0..<count {
            if let part = try? KernelKeyring.find(KernelRecordName.part(generation, index), in: ring) {
                KernelKeyring.remove(part)
            }
        }
    }

    /// Runs kernel calls, turning a failure into the error a user reads.
    private func kernel<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let failure as KernelKeyFailure {
            throw failure.keyringError(fallback: Self.fallback)
        }
    }
}
