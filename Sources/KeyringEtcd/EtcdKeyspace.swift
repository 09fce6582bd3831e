import KeyringCrypto
import SwiftKeyring

/// The etcd keys the store uses, none of which shows a name.
///
/// Under the prefix, `keyring` holds the sealing header (the file store's: key
/// source, Argon2id cost, salt, key check). A record lives at
/// `r/<service>/<kind>/<key>`, each part a keyed hash (HMAC-SHA256 under a key
/// derived for this purpose only), so etcd sees how many records each hashed
/// service has and nothing else; and a service's records, or one kind of them,
/// share a key prefix that one range delete removes.
struct EtcdKeyspace: Sendable {
    let prefix: String
    private let namesKey: SecureBytes

    /// The HKDF label of the names key; no other key is derived with it.
    static let namesLabel = "swift-keyring/1 etcd names"

    init(prefix: String, namesKey: SecureBytes) {
        self.prefix = prefix
        self.namesKey = namesKey
    }

    /// Where the sealing header is kept.
    static func headerKey(prefix: String) -> EtcdBytes {
        EtcdBytes(prefix + "keyring")
    }

    /// The key of one record.
    func recordKey(_ id: RecordID) throws -> EtcdBytes {
        EtcdBytes(
            try kindPrefix(service: id.service, kind: id.kind).bytes
                + Array(try hash("key", [id.service, id.kind.rawValue, id.key]).utf8))
    }

    /// The prefix every record of `service` begins with.
    func servicePrefix(_ service: String) throws -> EtcdBytes {
        EtcdBytes(prefix + "r/" + (try hash("service", [service])) + "/")
    }

    /// The prefix every record of one kind of `service` begins with.
    func kindPrefix(service: String, kind: RecordKind) throws -> EtcdBytes {
        EtcdBytes(try servicePrefix(service).bytes + Array((try hash("kind", [service, kind.rawValue]) + "/").utf8))
    }

    /// The keyed hash that ends a record's key: what names the record in `EtcdHostMemory`.
    static func recordHash(_ key: EtcdBytes) -> String {
        String(decoding: key.bytes.suffix(hashLength), as: UTF8.self)
    }

    /// Whether `key` has exactly the shape of a record key of `service` (of `kind`, or of any kind):
    /// its kind's prefix, then 64 lowercase hex digits, nothing more.
    ///
    /// A service's range holds more than its records when another keyring's prefix was chosen
    /// inside it (`<this prefix>r/<service hash>/…`): that keyring's header ends in `keyring` and
    /// its records in `r/…`, neither of which is hex, so listing and removing all of a service
    /// by this test never counts, opens or deletes another keyring's keys.
    func isRecordKey(_ key: EtcdBytes, service: String, kind: RecordKind?) throws -> Bool {
        for kind in kind.map({ [$0] }) ?? RecordKind.allCases {
            let prefix = try kindPrefix(service: service, kind: kind).bytes
            guard key.bytes.count == prefix.count + Self.hashLength, key.bytes.starts(with: prefix) else { continue }
            return key.bytes[prefix.count...].allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        }
        return false
    }

    /// The length of one keyed hash in hex.
    private static let hashLength = 64

    /// The end of the range of keys that begin with `prefix` (etcd's `range_end`).
    static func rangeEnd(of prefix: EtcdBytes) -> EtcdBytes {
        var bytes = prefix.bytes
        while let last = bytes.last {
            if last < 0xFF {
                bytes[bytes.count - 1] = last + 1
                return EtcdBytes(bytes)
            }
            bytes.removeLast()
        }
        return EtcdBytes([0])
    }

    /// HMAC over a purpose and length-prefixed fields, so no two inputs run together.
    private func hash(_ purpose: String, _ fields: [String]) throws -> String {
        let mac = try HMACSHA256(key: namesKey)
        var input = Array(purpose.utf8)
        for field in fields {
            let bytes = Array(field.utf8)
            input.append(contentsOf: withUnsafeBytes(of: UInt32(bytes.count).bigEndian, Array.init))
            input.append(contentsOf: bytes)
        }
        try mac.update(input)
        return try mac.finish().map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
