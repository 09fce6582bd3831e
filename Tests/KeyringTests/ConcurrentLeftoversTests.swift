import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// The control for the concurrent-clients stress's last check (`ConcurrentClients.leftovers`):
/// two items on one key fail it unless a write of that key was cut short, and then only one
/// more write may be needed to leave one item. Run on gnome-keyring's pass, where the
/// duplicate is made with `secret-tool`.
@Suite("The stress's leftover check")
struct ConcurrentLeftoversTests {
    @Test("Two items on a key fail the check; after a write cut short, one more write must leave one")
    func duplicates() throws {
        let environment = try PrivateSecretService.environment()
        let service = TestStore.uniqueService("leftovers")
        let keyring = try Keyring(service: service, store: ConcurrentClients.makeStore(environment: environment))
        defer { _ = try? keyring.removeAll() }
        try keyring.set(
            try Credentials(username: "user-0", password: "pw-0-0", url: ConcurrentClients.url), forKey: "alpha")
        // A second item holding the same identity, as a write whose clean-up was cut short leaves
        // one: another username, so that secret-tool's store (CreateItem with replace) adds it.
        let attributes = ConcurrentClients.itemAttributes(service: service, key: "alpha")
        let duplicate = attributes.merging(["username": "user-1"]) { $1 }
        let stored = try PrivateSecretService.secretTool(
            ["store", "--label=duplicate"] + duplicate.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] },
            input: Data("pw-0-1".utf8))
        try #require(stored.status == 0, "secret-tool store failed: \(stored.standardError)")
        try #require(try PrivateSecretService.itemCount(attributes) == 2)

        let unexplained = try ConcurrentClients.leftovers(
            service: service, written: ["pw-0-0", "pw-0-1"], cutShort: [], environment: environment)
        #expect(unexplained.problems.contains("alpha is held by 2 items"), "\(unexplained.problems)")
        #expect(try PrivateSecretService.itemCount(attributes) == 2, "the check wrote though no write was cut short")

        let explained = try ConcurrentClients.leftovers(
            service: service, written: ["pw-0-0", "pw-0-1"], cutShort: ["alpha"], environment: environment)
        #expect(explained.problems.isEmpty, "\(explained.problems)")
        #expect(try PrivateSecretService.itemCount(attributes) == 1)
    }
}
