/// Where a record of a two-store ``Keyring`` lives: on this machine, or in the store shared by every host.
///
/// A keyring opened with a shared store (``Keyring/syncStore``) keeps each record in
/// exactly one place, chosen by its sync flag: ``Credentials/syncEnabled`` (or
/// `sync:` of ``Keyring/setSecret(_:forKey:sync:)-8gdz3``) puts it in the shared store,
/// and without the flag it stays in the local store and is never sent anywhere.
/// A keyring without a shared store keeps everything ``local``.
public enum RecordPlace: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The local store (the Secret Service, the encrypted file or memory): this machine only.
    case local
    /// The shared store (an etcd cluster, say): every host that opens it reads the record.
    case shared

    /// The place's word, `local` or `shared`, as `swift-keyring list` prints it.
    public var description: String { rawValue }
}
