/// A store that can sometimes answer a read at once, with nothing to wait for,
/// so the async face can skip the hop to its queue and back (about 35 µs here,
/// against a 13 µs file-store lookup).
///
/// "At once" means no lock held by anybody else, no D-Bus call, no file to read:
/// only memory and, for the file store, one `lstat` to see that the file is the
/// version already in memory. When any of that is not so, the store says
/// `.wouldWait` and the read goes to the queue as usual.
package protocol ImmediateReads: CredentialStore {
    /// The record under `id`, when it can be had without waiting.
    func immediateRecord(for id: RecordID) throws -> ImmediateRead<StoredRecord?>
}

/// The answer of `ImmediateReads.immediateRecord(for:)`.
package enum ImmediateRead<Value> {
    /// The read was answered without waiting.
    case answered(Value)
    /// Answering would wait (a busy lock, a file to read again): use the queue.
    case wouldWait
}

extension Keyring {
    /// `store` as ``ImmediateReads``, when it is one.
    ///
    /// Only the two stores of this package conform (the protocol is `package`), so their
    /// types are compared, and nothing else is cast. A cast that fails costs more than it
    /// seems: a cast to a protocol, the first time a type meets it, scans every conformance
    /// record in the binary, and a failed cast of an existential to a class makes the
    /// runtime look up Foundation's boxing type by its name first (about 0.7M instructions
    /// together, 8% of a whole `swift-keyring get` on the Secret Service, callgrind).
    static func immediateReads(of store: any CredentialStore) -> (any ImmediateReads)? {
        let type = ObjectIdentifier(Swift.type(of: store))
        if type == ObjectIdentifier(EncryptedFileStore.self) { return store as? EncryptedFileStore }
        if type == ObjectIdentifier(MemoryStore.self) { return store as? MemoryStore }
        return nil
    }
}
