import KeyringCrypto
import SwiftKeyring

/// A record's value in etcd: a format byte, the record's version, then the sealed record
/// (`SealedRecord.encoded`): `0x01 ‖ version (8 bytes, big-endian) ‖ sealed record`.
///
/// The version is in the clear, so a writer can number the next one without a key, and it is
/// bound into the record's associated data with the etcd key (`associatedData`), so a value
/// with its version changed does not open. Each host remembers the highest version it has seen
/// of each record (`EtcdHostMemory`) and refuses an older one.
///
/// Values written before versions are the sealed record alone, which begins with its entry's
/// 4-byte length: its first byte is 0, as no entry comes near 16 MiB. They read as version 0,
/// and the next write of the record gives it a version.
struct EtcdValue {
    /// The first byte of a value that carries a version.
    static let versionedFormat: UInt8 = 1

    /// 0 for a value written before versions.
    let version: UInt64
    let sealed: SealedRecord
    /// Whether the value was written before versions.
    let isUnversioned: Bool

    /// The largest value a record of this store makes: a 16 MiB secret (`Keyring`'s limit) and
    /// an entry with a service, key, username and URL of 4 KiB each, each part padded and sealed
    /// (a 12-byte nonce and a 16-byte tag) behind a 4-byte length.
    static let largestBytes = 1 + 8 + 2 * (4 + 12 + 16) + (2 + 4 * (4 + 4096) + 32) + (4 + (16 << 20) + 32)

    /// Reads a value as etcd holds it.
    /// - Throws: `.damaged` when it is neither format, or its lengths do not add up.
    init(decoding bytes: [UInt8]) throws {
        switch bytes.first {
        case 0:
            version = 0
            isUnversioned = true
            sealed = try SealedRecord(standalone: bytes)
        case Self.versionedFormat:
            guard bytes.count > 9 else { throw KeyringError.damaged(reason: "a record in etcd ends early") }
            version = bytes[1..<9].reduce(0) { $0 << 8 | UInt64($1) }
            isUnversioned = false
            sealed = try SealedRecord(standalone: Array(bytes[9...]))
        default:
            throw KeyringError.damaged(reason: "a record in etcd has an unknown format")
        }
    }

    /// The value for `sealed` at `version`.
    static func encode(version: UInt64, sealed: ArraySlice<UInt8>) -> [UInt8] {
        var bytes = [versionedFormat]
        bytes.reserveCapacity(9 + sealed.count)
        bytes.append(contentsOf: withUnsafeBytes(of: version.bigEndian, Array.init))
        bytes.append(contentsOf: sealed)
        return bytes
    }

    /// What a value binds besides its own bytes: the keyring's header, its etcd key, and its
    /// version (none for a value written before versions, as those were sealed).
    static func associatedData(header: [UInt8], key: EtcdBytes, version: UInt64?) -> [UInt8] {
        var bytes = header + key.bytes
        if let version {
            bytes.append(versionedFormat)
            bytes.append(contentsOf: withUnsafeBytes(of: version.bigEndian, Array.init))
        }
        return bytes
    }

    /// `associatedData` for this value.
    func associatedData(header: [UInt8], key: EtcdBytes) -> [UInt8] {
        Self.associatedData(header: header, key: key, version: isUnversioned ? nil : version)
    }
}
