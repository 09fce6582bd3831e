import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// `save(contentsOf:)` seals an import straight into the file it writes; records
/// it replaces (already in the file, or earlier in the same import) must be gone,
/// and every other record must come back whole, here and in another store.
@Suite("Encrypted file: import")
struct EncryptedFileImportTests {
    private func record(_ index: Int, secret: String? = nil) -> StoredRecord {
        StoredRecord(
            id: RecordID(service: "import", key: "key-\(index)", kind: .credentials),
            metadata: RecordMetadata(
                username: "user\(index)", url: "https://example.com/\(index)", syncEnabled: false, backgroundAccess: false
            ),
            secret: Array((secret ?? "secret-\(index)").utf8)
        )
    }

    private func expectExactly(_ expected: [StoredRecord], in store: EncryptedFileStore) throws {
        for record in expected {
            #expect(try store.record(for: record.id) == record, "record \(record.id.key)")
        }
        #expect(try store.summaries(service: "import", kind: nil).count == expected.count)
    }

    @Test("An import read lazily, once, stores every record")
    func lazyImport() throws {
        let key = FileStoreFixture.randomKey()
        let store = try FileStoreFixture.store(key: key)
        var reads = 0
        try store.save(
            contentsOf: (0..<500).lazy.map { index in
                reads += 1
                return record(index)
            })
        #expect(reads == 500)
        let expected = (0..<500).map { record($0) }
        try expectExactly(expected, in: store)
        try expectExactly(expected, in: FileStoreFixture.store(url: store.url, key: key))
    }

    @Test("An import replaces records already in the file and earlier ones of its own, the last one winning")
    func importReplaces() throws {
        let key = FileStoreFixture.randomKey()
        let store = try FileStoreFixture.store(key: key)
        try store.save(contentsOf: (0..<50).map { record($0) })
        // Replaces 10..<20 from the file, adds 50..<60, and gives 55 twice.
        let batch =
            (10..<20).map { record($0, secret: "new-\($0)") } + (50..<60).map { record($0) }
            + [record(55, secret: "last-55")]
        try store.save(contentsOf: batch)

        var expected = (0..<60).map { record($0) }
        for index in 10..<20 { expected[index] = record(index, secret: "new-\(index)") }
        expected[55] = record(55, secret: "last-55")
        try expectExactly(expected, in: store)
        try expectExactly(expected, in: FileStoreFixture.store(url: store.url, key: key))
    }

}
