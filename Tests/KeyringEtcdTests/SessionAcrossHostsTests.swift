import Foundation
import KeyringSession
import KeyringTestSupport
import SwiftKeyring
import Testing

/// Issue 37: a `Session` over a two-store keyring on the real cluster, as the README promises:
/// logout removes a synced default for every host, a device-only one only here.
@Suite("Session on a two-store keyring on etcd")
struct SessionAcrossHostsTests {
    enum Property: String, SessionProperty {
        /// Secure, forgotten at logout, required.
        case token
        /// Secure, kept at logout.
        case deviceKey

        var isSecure: Bool { true }
        var isPersisted: Bool { self == .deviceKey }
    }

    func session(_ host: SyncFleet.Host) throws -> Session<Property> {
        try Session(
            keyring: host.keyring, requiredProperties: [.token],
            stateDirectory: host.stateFolder.appendingPathComponent("session"))
    }

    @Test("Logout removes a synced default on every host, and the secure properties it forgets, only here")
    func syncedDefault() throws {
        let fleet = try SyncFleet(try EtcdCluster.shared())
        let hostA = try fleet.fileHost()
        let hostB = try fleet.fileHost()
        defer { _ = try? hostA.keyring.removeAll() }
        let onA = try session(hostA)
        let onB = try session(hostB)
        try hostA.keyring.setDefault(try Fixtures.credentials("fleet", password: "fleet-pw", sync: true))
        try onA.set("token-a", for: .token)
        try onA.set("device-a", for: .deviceKey)
        try onB.set("token-b", for: .token)
        #expect(try onA.status == .loggedIn)
        #expect(try onB.defaultCredentials()?.username == "fleet")
        // Secure properties are device-only: the shared store holds only the default.
        #expect(try hostA.shared.summaries(service: fleet.service, kind: nil).count == 1)

        try onA.logout()

        #expect(try onA.status == .loggedOut)
        #expect(try onA.defaultCredentials() == nil)
        #expect(try onB.defaultCredentials() == nil)
        #expect(try hostA.shared.summaries(service: fleet.service, kind: nil).isEmpty)
        #expect(try onA.string(for: .token) == nil)
        #expect(try onA.string(for: .deviceKey) == "device-a", "deviceKey on A")
        // Host B's own token is its own: not touched by A's logout.
        #expect(try onB.string(for: .token) == "token-b", "token on B")
    }

    @Test("Logout removes a device-only default here only; another host's device-only default stays")
    func deviceOnlyDefault() throws {
        let fleet = try SyncFleet(try EtcdCluster.shared())
        let hostA = try fleet.fileHost()
        let hostB = try fleet.fileHost()
        defer {
            _ = try? hostA.keyring.removeAll()
            _ = try? hostB.keyring.removeAll()
        }
        let onA = try session(hostA)
        let onB = try session(hostB)
        try hostA.keyring.setDefault(try Fixtures.credentials("alice-a"))
        try hostB.keyring.setDefault(try Fixtures.credentials("alice-b"))
        try onA.set("token-a", for: .token)

        try onA.logout()

        #expect(try onA.defaultCredentials() == nil)
        #expect(try onB.defaultCredentials()?.username == "alice-b")
        #expect(try hostA.shared.summaries(service: fleet.service, kind: nil).isEmpty)
        #expect(try onA.status == .loggedOut)
    }
}
