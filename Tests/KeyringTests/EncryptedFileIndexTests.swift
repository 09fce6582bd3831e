import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// The store's index points into the file it read and into records saved since;
/// every record must come back whole whichever of these it lives in.
@Suite("Encrypted file: index")
struct EncryptedFileIndexTests {
    private func record(_ index: Int, service: String = "index") -> StoredRecord {
        StoredRecord(
            id: RecordID(service: service, key: "key-\(index)", kind: index.isMultiple(of: 3) ? .secret : .credentials),
            metadata: RecordMetadata(
                username: "user\(index)",
                url: "https://example.com/\(index)",
                syncEnabled: index.isMultiple(of: 2),
                backgroundAccess: index.isMultiple(of: 5)
            ),
            secret: Array("secret-\(index)".utf8)
        )
    }

    private func expectAll(_ expected: [StoredRecord], in store: EncryptedFileStore) throws {
        for record in expected {
            #expect(try store.record(for: record.id) == record, "record \(record.id.key)")
        }
        let summaries = try store.summaries(service: "index", kind: nil)
        #expect(summaries.count == expected.count)
        let byID = Dictionary(uniqueKeysWithValues: expected.map { ($0.id, $0.metadata) })
        #expect(summaries.allSatisfy { byID[$0.id] == $0.metadata })
    }

    @Test("Records read from the file, saved since and rewritten come back whole", arguments: [1, 40, 300])
    func readSavedRewritten(count: Int) throws {
        let key = FileStoreFixture.randomKey()
        let writer = try FileStoreFixture.store(key: key)
        try writer.save(contentsOf: (0..<count).map { record($0) })
        try writer.save(record(0, service: "other"))

        let reader = try FileStoreFixture.store(url: writer.url, key: key)
        var expected = (0..<count).map { record($0) }
        try expectAll(expected, in: reader)

        // Each write re-points every record at the new file, those read and those just saved.
        try reader.save(record(count))
        expected.append(record(count))
        #expect(try reader.removeRecord(for: record(0).id))
        expected.removeFirst()
        try expectAll(expected, in: reader)
        try expectAll(expected, in: writer)
        try expectAll(expected, in: FileStoreFixture.store(url: writer.url, key: key))
        #expect(try reader.record(for: record(0, service: "other").id) == record(0, service: "other"))
    }
}
