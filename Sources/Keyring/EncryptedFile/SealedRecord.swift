/// One record as the file holds it, and as the store's in-memory index keeps it:
/// identity and metadata readable (decrypted once, when the file is read), the
/// secret still sealed until a lookup asks for it.
struct SealedRecord: Sendable {
    let id: RecordID
    let metadata: RecordMetadata
    /// `nonce ‖ ciphertext ‖ tag` of the record's entry (names and metadata).
    let sealedEntry: [UInt8]
    /// `nonce ‖ ciphertext ‖ tag` of the record's secret.
    let sealedSecret: [UInt8]
}
