/// What a record holds: a login (`credentials`) or an arbitrary secret (`secret`).
///
/// Stored as the `kind` attribute, so the two never collide under one key.
public enum RecordKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A ``Credentials`` record: username, password, URL and flags.
    case credentials
    /// A generic secret value, as kept by `SecretStore` and the session layer.
    case secret
}

/// The identity of one stored record: the app's service, the key, and the kind.
///
/// A store holds at most one record per ``RecordID``; saving again replaces it.
public struct RecordID: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The app's namespace, for example `com.example.mail`.
    public var service: String
    /// The record's key inside the service.
    public var key: String
    /// Whether this is a credentials record or a generic secret.
    public var kind: RecordKind

    /// Creates an identity. Validation happens in ``Keyring``, which names the bad field.
    public init(service: String, key: String, kind: RecordKind) {
        self.service = service
        self.key = key
        self.kind = kind
    }

    /// `service/key (kind)`: no secret is part of an identity.
    public var description: String { "\(service)/\(key) (\(kind.rawValue))" }

    /// Two identities are one when their service and key are the same Unicode scalars,
    /// not merely canonically equivalent as `String`'s `==` has it: `é` as one scalar and
    /// as `e` and a combining accent are two keys, in every store, as the Secret Service
    /// (which compares bytes) has them.
    public static func == (left: RecordID, right: RecordID) -> Bool {
        left.kind == right.kind && ExactUTF8.same(left.service, right.service) && ExactUTF8.same(left.key, right.key)
    }

    /// Hashes the exact bytes, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(service.utf8.count)
        ExactUTF8.hash(service, into: &hasher)
        ExactUTF8.hash(key, into: &hasher)
    }
}
