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
    /// The two stores of this package that conform are tried by class first: a cast to a
    /// final class compares one pointer, while a cast to a protocol, the first time a type
    /// meets it, scans every conformance record in the binary (about 0.3M instructions in
    /// the tool, 3% of a whole `swift-keyring get`). Only a store of this package can
    /// conform (the protocol is `package`), so the generic cast is left for the others
    /// (a store of another module, such as etcd's, which never conforms).
    static func immediateReads(of store: any CredentialStore) -> (any ImmediateReads)? {
        if let file = store as? EncryptedFileStore { return file }
        if let memory = store as? MemoryStore { return memory }
        if store is SecretServiceStore { return nil }
        return store as? any ImmediateReads
    }
}
