import KeyringCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// What a read hands back, made from the record a store returned. The sync and
// async faces both go through these, so both wipe the record's secret bytes once
// the value is made: the secret then lives on only in the value returned.
//
// Each takes the record `consuming`, and callers hand it over with `consume` (or as
// the call's own result): the secret's buffer then has one owner when it is wiped, so
// the wipe overwrites the bytes the store returned. A borrowed record bound to a `var`
// would be a second reference to the same buffer, and `wipe()` would first copy it
// (copy-on-write) and wipe the copy, leaving the store's bytes to be freed unwiped.
// A buffer the store still shares (MemoryStore keeps its own) is copied and the copy
// wiped, as it must be: the store's record is not the reader's to destroy.
extension Keyring {
    /// The credentials in `record`; its secret bytes are wiped.
    static func credentials(taking record: consuming StoredRecord?) throws -> Credentials? {
        guard var record = consume record else { return nil }
        defer { record.secret.wipe() }
        return try Credentials(record: record)
    }

    /// The password in `record`'s secret bytes, which are wiped.
    static func password(taking record: consuming StoredRecord?) throws -> String? {
        guard var record = consume record else { return nil }
        defer { record.secret.wipe() }
        return try Credentials.password(from: record.secret, of: record.id)
    }

    /// The password in `secret` (the record `id`'s), whose bytes are wiped.
    static func password(taking secret: consuming [UInt8]?, of id: RecordID) throws -> String? {
        guard var secret = consume secret else { return nil }
        defer { secret.wipe() }
        return try Credentials.password(from: secret, of: id)
    }

    /// The bytes of a generic secret; the record's copy is wiped.
    static func secretData(taking record: consuming StoredRecord?) -> Data? {
        guard var record = consume record else { return nil }
        defer { record.secret.wipe() }
        return Data(record.secret)
    }
}
