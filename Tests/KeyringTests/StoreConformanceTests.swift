import Foundation
import KeyringTestKit
import KeyringTestSupport
import SwiftKeyring
import Testing

/// One suite, written once, run against every store: the checks of KeyringTestKit, which
/// store authors run against theirs, and what Keyring itself promises on every store.
@Suite("Store conformance")
struct StoreConformanceTests {
    @Test(
        "The store passes the kit's conformance check",
        arguments: TestStore.underTest, CredentialStoreConformance.Check.allCases)
    func conformance(store: TestStore, check: CredentialStoreConformance.Check) throws {
        let conformance = CredentialStoreConformance(store: try store.makeKeyring().store, exactNames: Self.exactNames(on: store))
        for failure in conformance.run([check]) {
            Issue.record("\(failure)")
        }
    }

    @Test("Invalid records are refused and change nothing", arguments: TestStore.underTest)
    func invalidRecordsChangeNothing(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        let good = try Samples.credentials("kept")
        try keyring.set(good, forKey: "k")
        var bad = good
        bad.url = URL(string: "ftp://files.example.com")!
        #expect(throws: KeyringError.invalidRecord(field: "url", reason: "must use http or https, not ftp")) {
            try keyring.set(bad, forKey: "k")
        }
        bad = good
        bad.username = ""
        #expect(throws: KeyringError.invalidRecord(field: "username", reason: "must not be empty")) {
            try keyring.set(bad, forKey: "k")
        }
        #expect(throws: KeyringError.invalidRecord(field: "key", reason: "must not be empty")) {
            try keyring.set(good, forKey: "")
        }
        #expect(try keyring.credentials(forKey: "k") == good)
    }
}
