/// One record as the store's in-memory index keeps it: where its sealed entry
/// and sealed secret are, laid out as in the file (`length ‖ entry ‖ length ‖ secret`).
///
/// The index's key is the record's identity, decrypted when the file is read;
/// its metadata and its secret stay sealed until asked for, so the index costs
/// little more than the file itself (24 bytes a record beside the key).
package struct SealedRecord: Sendable {
    package let storage: SealedBytes
    /// Where the record starts in `storage`, and how many bytes it takes there.
    package let offset: Int
    package let length: Int

    /// A record at `offset` in `storage`, `length` bytes long; its two length prefixes were checked by the caller.
    package init(storage: SealedBytes, offset: Int, length: Int) {
        self.storage = storage
        self.offset = offset
        self.length = length
    }

    /// The record as the file holds it, both length prefixes included.
    package var encoded: ArraySlice<UInt8> {
        storage.bytes[offset..<(offset + length)]
    }

    /// `nonce ‖ ciphertext ‖ tag` of the record's entry (names and metadata).
    package var sealedEntry: ArraySlice<UInt8> {
        part(at: offset)
    }

    /// `nonce ‖ ciphertext ‖ tag` of the record's secret.
    package var sealedSecret: ArraySlice<UInt8> {
        part(at: sealedEntry.endIndex)
    }

    /// The length-prefixed part at `start`; both lengths were checked when the record was read or sealed.
    private func part(at start: Int) -> ArraySlice<UInt8> {
        let bytes = storage.bytes
        let count = bytes[start..<(start + 4)].reduce(0) { $0 << 8 | Int($1) }
        return bytes[(start + 4)..<(start + 4 + count)]
    }
}
