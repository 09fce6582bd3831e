/// A store that reads one record chosen among a service's records, its secret included,
/// with the work of one listing and one read.
///
/// The caller (git's credential helper, answering a `get` without a username) knows which
/// record it wants only once it has seen the keys. Listing and then reading the record by
/// its identity searches twice on the Secret Service; a store of this kind keeps what its
/// listing found (the items' paths, the file's index) and reads the chosen record from there.
package protocol ChosenRecordReads: CredentialStore {
    /// The first record of `service` and `kind`, in the order `choose` gives the identities
    /// it is shown, that can be read, secret included; `nil` when `choose` gives none or none
    /// of them is there any more.
    ///
    /// Checked as `record(for:call:)` checks: what the store returns really is the record of
    /// the identity chosen. `choose` sees every record's identity once, no secret.
    /// - Throws: as `record(for:call:)`, for the record being read.
    func firstRecord(
        service: String, kind: RecordKind, choosing choose: ([RecordID]) -> [RecordID], call: StoreCall
    ) throws -> StoredRecord?
}

extension Keyring {
    /// `store` as ``ChosenRecordReads``, when it is one: by its type, as `immediateReads(of:)`
    /// does and for the same reason (a failed cast costs a search of the binary's records).
    static func chosenRecordReads(of store: any CredentialStore) -> (any ChosenRecordReads)? {
        let type = ObjectIdentifier(Swift.type(of: store))
        if type == ObjectIdentifier(EncryptedFileStore.self) { return store as? EncryptedFileStore }
        if type == ObjectIdentifier(SecretServiceStore.self) { return store as? SecretServiceStore }
        return nil
    }
}
