import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// Moving records between stores: every field, secrets and the default record arrive; the source is
/// emptied only on request, and other services are never touched.
@Suite("Migration between stores")
struct MigrationTests {
    static let pairs: [(TestStore, TestStore)] = [
        (.encryptedFile, .secretService), (.secretService, .encryptedFile), (.memory, .encryptedFile),
        (.encryptedFile, .libsecretFile), (.libsecretFile, .encryptedFile), (.secretService, .libsecretFile),
        (.libsecretFile, .secretService),
    ]

    @Test("Every record of the service arrives exactly", arguments: pairs)
    func migrate(from sourceStore: TestStore, to targetStore: TestStore) throws {
        let service = TestStore.uniqueService("migrate")
        let source = try sourceStore.makeKeyring(service: service)
        let target = try targetStore.makeKeyring(service: service)
        let bystander = try Keyring(service: TestStore.uniqueService("bystander"), store: source.store)
        defer {
            _ = try? source.removeAll()
            _ = try? target.removeAll()
            _ = try? bystander.removeAll()
        }
        let main = try Samples.credentials("main", password: Samples.hardPasswords[3], sync: true)
        let work = try Samples.credentials("work", password: "p🔑", background: true)
        let blob = Data([0, 0xFF, 0xFE, 1])
        try source.setDefault(main)
        try source.set(work, forKey: "work")
        try source.setSecret(blob, forKey: "token")
        try bystander.set(try Samples.credentials("other"), forKey: "work")

        #expect(try target.migrate(from: source) == 3)
        #expect(try target.defaultCredentials() == main)
        #expect(try target.credentials(forKey: "work") == work)
        #expect(try target.secret(forKey: "token") == blob)
        #expect(try source.list().count == 2, "without removingFromSource the source keeps its records")

        #expect(try target.migrate(from: source, removingFromSource: true) == 3)
        #expect(try target.list().map(\.key) == [Keyring.defaultKey, "work"])
        #expect(try source.list().isEmpty && source.secretKeys().isEmpty)
        #expect(try bystander.credentials(forKey: "work")?.username == "other")
    }
}
