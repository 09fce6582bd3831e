import SwiftKeyring

/// The comparison's workload on one keyring: store N records, look each up,
/// remove each, or remove them all at once.
///
/// Every phase checks what it gets back, so a store that answers fast but
/// wrongly fails instead of winning.
public enum Workload {
    /// Stores records `0..<count`, with the sync flag when `sync` is set.
    public static func storeEach(_ count: Int, in keyring: Keyring, sync: Bool = false) throws {
        for index in 0..<count {
            var credentials = WorkloadAccounts.credentials(index)
            credentials.syncEnabled = sync
            try keyring.set(credentials, forKey: WorkloadAccounts.key(index))
        }
    }

    /// Stores records `0..<count`, with the sync flag when `sync` is set.with one write where the store can (the encrypted file),
    /// one by one elsewhere.
    public static func bulkStore(_ count: Int, in keyring: Keyring) throws {
        guard let file = keyring.store as? EncryptedFileStore else { return try storeEach(count, in: keyring) }
        try file.save(contentsOf: (0..<count).lazy.map { WorkloadAccounts.record($0, service: keyring.service) })
    }

    /// Looks up records `0..<count`, checking each password.
    /// - Throws: `WorkloadFailure` when a record is missing or wrong.
    public static func lookupEach(_ count: Int, in keyring: Keyring) throws {
        for index in 0..<count {
            try lookup(index, in: keyring)
        }
    }

    /// Looks up record `index`, checking its password.
    /// - Throws: `WorkloadFailure` when the record is missing or wrong.
    public static func lookup(_ index: Int, in keyring: Keyring) throws {
        let found = try keyring.credentials(forKey: WorkloadAccounts.key(index))
        guard found?.password == WorkloadAccounts.password(index) else {
            throw WorkloadFailure("lookup of \(WorkloadAccounts.key(index)) returned a missing or wrong password")
        }
    }

    /// Looks up record `index` through the async face, checking its password: the
    /// same lookup as `lookup(_:in:)` plus the hop to the library's thread and back.
    /// - Throws: `WorkloadFailure` when the record is missing or wrong.
    public static func lookupAsync(_ index: Int, in keyring: Keyring) async throws {
        let found = try await keyring.credentials(forKey: WorkloadAccounts.key(index))
        guard found?.password == WorkloadAccounts.password(index) else {
            throw WorkloadFailure("lookup of \(WorkloadAccounts.key(index)) returned a missing or wrong password")
        }
    }

    /// Looks up only the passwords of records `0..<count` (`password(forKey:)`), the
    /// same question libsecret's `secret_password_lookup` and Python's `get_password` answer.
    /// - Throws: `WorkloadFailure` when a record is missing or wrong.
    public static func lookupPasswordEach(_ count: Int, in keyring: Keyring) throws {
        for index in 0..<count {
            guard try keyring.password(forKey: WorkloadAccounts.key(index)) == WorkloadAccounts.password(index) else {
                throw WorkloadFailure("password lookup of \(WorkloadAccounts.key(index)) returned a missing or wrong password")
            }
        }
    }

    /// Looks up `count` keys that are not stored, checking each is missing: the cost of
    /// asking the store with nothing to decrypt (on etcd, one range round trip).
    /// - Throws: `WorkloadFailure` when one is there.
    public static func lookupAbsentEach(_ count: Int, in keyring: Keyring) throws {
        for index in 0..<count {
            guard try keyring.credentials(forKey: "absent-\(index)") == nil else {
                throw WorkloadFailure("lookup of absent-\(index) found a record")
            }
        }
    }

    /// Removes records `0..<count` one by one, checking each was there.
    public static func removeEach(_ count: Int, from keyring: Keyring) throws {
        for index in 0..<count {
            guard try keyring.remove(forKey: WorkloadAccounts.key(index)) else {
                throw WorkloadFailure("remove of \(WorkloadAccounts.key(index)) found nothing")
            }
        }
    }

    /// Removes every record of the keyring's service with one call, checking the count.
    public static func removeAll(_ count: Int, from keyring: Keyring) throws {
        let removed = try keyring.removeAll()
        guard removed == count else {
            throw WorkloadFailure("removeAll removed \(removed) records, not \(count)")
        }
    }

    /// Makes the keyring hold records `0..<count` and nothing else, storing them only
    /// when the count is off, so benchmarks that share a populated store fill it once.
    public static func ensurePopulated(_ keyring: Keyring, count: Int) throws {
        let present = try keyring.list().count
        if present == count { return }
        if present != 0 { try keyring.removeAll() }
        try bulkStore(count, in: keyring)
    }
}

/// A benchmark that got a wrong answer; its message names keys and counts, never secrets.
public struct WorkloadFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// Creates a failure.
    public init(_ description: String) { self.description = description }
}
