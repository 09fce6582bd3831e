import Foundation
import KeyringTestKit
import SwiftKeyring
import Synchronization
import Testing

/// A store kept in an array, correct unless given a defect: what the kit must tell apart.
final class ArrayStore: CredentialStore {
    enum Defect: String, Sendable, CaseIterable, CustomTestStringConvertible {
        /// `save` appends without removing the record it replaces.
        case keepsTwoRecordsOnSave
        /// `removeAll` removes every record of the kind, whatever its service.
        case removeAllTouchesOtherServices
        /// Names are compared after Unicode normalisation, as Swift's `==` does.
        case comparesNamesAsStrings
        /// `secret(for:)` answers the first record with the key, whatever its kind.
        case secretIgnoresKind
        /// The sync flag is not stored.
        case dropsSyncFlag
        /// Secrets are cut at the first NUL, as a C string would be.
        case cutsSecretsAtNUL
        /// `removeRecord` says `true` whether or not a record was there.
        case removeAlwaysSaysTrue

        var testDescription: String { rawValue }
    }

    let identity = StoreIdentity(kind: StoreKind("array"))
    private let defect: Defect?
    private let records = Mutex<[StoredRecord]>([])

    init(defect: Defect? = nil) {
        self.defect = defect
    }

    private func matches(_ left: RecordID, _ right: RecordID) -> Bool {
        if defect == .comparesNamesAsStrings {
            return left.service == right.service && left.key == right.key && left.kind == right.kind
        }
        return left == right
    }

    func record(for id: RecordID, call: StoreCall) throws -> StoredRecord? {
        records.withLock { $0.first { matches($0.id, id) } }
    }

    func secret(for id: RecordID, call: StoreCall) throws -> [UInt8]? {
        guard defect == .secretIgnoresKind else { return try record(for: id, call: call)?.secret }
        return records.withLock { $0.first { $0.id.service == id.service && $0.id.key == id.key }?.secret }
    }

    func save(_ record: StoredRecord, call: StoreCall) throws {
        var record = record
        if defect == .dropsSyncFlag { record.metadata.syncEnabled = false }
        if defect == .cutsSecretsAtNUL, let nul = record.secret.firstIndex(of: 0) { record.secret = Array(record.secret[..<nul]) }
        records.withLock { records in
            if defect != .keepsTwoRecordsOnSave { records.removeAll { matches($0.id, record.id) } }
            records.append(record)
        }
    }

    func removeRecord(for id: RecordID, call: StoreCall) throws -> Bool {
        let removed = records.withLock { records in
            let before = records.count
            records.removeAll { matches($0.id, id) }
            return records.count < before
        }
        return defect == .removeAlwaysSaysTrue ? true : removed
    }

    func summaries(service: String, kind: RecordKind?, call: StoreCall) throws -> [RecordSummary] {
        records.withLock { records in
            records.filter { $0.id.service == service && (kind == nil || $0.id.kind == kind) }
                .map { RecordSummary(id: $0.id, metadata: $0.metadata) }
        }
    }

    func removeAll(service: String, kind: RecordKind?, call: StoreCall) throws -> Int {
        records.withLock { records in
            let before = records.count
            records.removeAll {
                (defect == .removeAllTouchesOtherServices || $0.id.service == service) && (kind == nil || $0.id.kind == kind)
            }
            return before - records.count
        }
    }
}

/// The kit passes a correct store and rejects each broken one, naming a check that fails.
@Suite("Conformance kit")
struct BrokenStoreTests {
    @Test("A correct store passes every check, and verify does not throw")
    func correctStorePasses() throws {
        let kit = CredentialStoreConformance(store: ArrayStore())
        #expect(kit.run().map(\.description) == [])
        try kit.verify()
    }

    /// The checks that must catch each defect (a defect may trip others too).
    static let caught: [(ArrayStore.Defect, CredentialStoreConformance.Check)] = [
        (.keepsTwoRecordsOnSave, .saveReplaces),
        (.removeAllTouchesOtherServices, .removeAllKeepsOtherServices),
        (.comparesNamesAsStrings, .exactNames),
        (.secretIgnoresKind, .kindsAreSeparate),
        (.dropsSyncFlag, .fieldsRoundTrip),
        (.cutsSecretsAtNUL, .passwordsRoundTrip),
        (.removeAlwaysSaysTrue, .missingRecords),
    ]

    @Test("A broken store fails the check that proves its defect, and verify throws", arguments: caught)
    func brokenStoreFails(defect: ArrayStore.Defect, check: CredentialStoreConformance.Check) throws {
        let kit = CredentialStoreConformance(store: ArrayStore(defect: defect))
        let failures = kit.run([check])
        #expect(!failures.isEmpty, "the kit passed a store that \(defect.rawValue)")
        #expect(failures.allSatisfy { $0.check == check })
        #expect(throws: ConformanceFailures.self) { try kit.verify([check]) }
    }

    @Test("Every defect fails the whole suite")
    func everyDefectFailsTheSuite() {
        for defect in ArrayStore.Defect.allCases {
            #expect(!CredentialStoreConformance(store: ArrayStore(defect: defect)).run().isEmpty, "\(defect.rawValue)")
        }
    }

    @Test("A failure names its check and never quotes a stored password")
    func failureWording() throws {
        let failures = CredentialStoreConformance(store: ArrayStore(defect: .cutsSecretsAtNUL)).run([.passwordsRoundTrip])
        let first = try #require(failures.first)
        #expect(first.description.hasPrefix("passwords round-trip: expected password 3 (11 bytes) back unchanged"))
        #expect(failures.allSatisfy { !$0.description.contains("inside") })
    }

    @Test("A check that throws reports the error as its failure, and the checks after it still run")
    func throwingStore() {
        struct Refusing: CredentialStore {
            let identity = StoreIdentity(kind: StoreKind("refusing"))
            func record(for id: RecordID, call: StoreCall) throws -> StoredRecord? { nil }
            func save(_ record: StoredRecord, call: StoreCall) throws { throw KeyringError.locked }
            func removeRecord(for id: RecordID, call: StoreCall) throws -> Bool { false }
            func summaries(service: String, kind: RecordKind?, call: StoreCall) throws -> [RecordSummary] { [] }
            func removeAll(service: String, kind: RecordKind?, call: StoreCall) throws -> Int { 0 }
        }
        let failures = CredentialStoreConformance(store: Refusing()).run([.fieldsRoundTrip, .missingRecords])
        #expect(failures.map(\.check) == [.fieldsRoundTrip])
        #expect(failures.first?.expected == "no error")
    }
}
