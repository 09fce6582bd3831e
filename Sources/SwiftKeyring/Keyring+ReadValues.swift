import KeyringCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// What a read hands back, made from the record a store returned. The sync and
// async faces both go through these, so both wipe the record's secret bytes once
// the value is made: the secret then lives on only in the value returned.
extension Keyring {
    /// The credentials in `record`; its secret bytes are wiped.
    static func credentials(taking record: StoredRecord?) throws -> Credentials? {
        guard var record else { return nil }
        defer { record.secret.wipe() }
        return try Credentials(record: record)
    }

    /// The password in `record`'s secret bytes, which are wiped.
    static func password(taking record: StoredRecord?) throws -> String? {
        guard let record else { return nil }
        return try password(taking: record.secret, of: record.id)
    }

    /// The password in `secret` (the record `id`'s), whose bytes are wiped.
    static func password(taking secret: [UInt8]?, of id: RecordID) throws -> String? {
        guard var secret else { return nil }
        defer { secret.wipe() }
        return try Credentials.password(from: secret, of: id)
    }

    /// The bytes of a generic secret; the record's copy is wiped.
    static func secretData(taking record: StoredRecord?) -> Data? {
        guard var record else { return nil }
        defer { record.secret.wipe() }
        return Data(record.secret)
    }
}
