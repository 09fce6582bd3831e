import Foundation
import KeyringSession
import SwiftKeyring
import Testing

@Suite("SecretStore on a two-store keyring")
struct SecretStoreTwoStoreTests {
    @Test("An account's secrets are device-only: the shared store never holds one, and they read and remove as before")
    func deviceOnly() throws {
        let shared = MemoryStore()
        let keyring = try Keyring(service: "test.session-sync", store: MemoryStore(), syncStore: shared)
        let secrets = try SecretStore(keyring: keyring, account: "alice")
        try secrets.set("login token", forKey: "token")
        #expect(try secrets.string(forKey: "token") == "login token")
        #expect(try shared.summaries(service: "test.session-sync", kind: nil).isEmpty)
        #expect(try secrets.removeAll() == 1)
        #expect(try secrets.string(forKey: "token") == nil)
    }
}
