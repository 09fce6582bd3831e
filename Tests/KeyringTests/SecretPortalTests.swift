import Foundation
import KeyringTestSupport
import Testing

@testable import SwiftKeyring

/// The Secret portal's key, as a sandboxed app meets it: xdg-desktop-portal on a
/// test's own bus, with gnome-keyring as its backend; and every way it can fail,
/// each a clear error naming the portal, within its bound.
@Suite("Secret portal")
struct SecretPortalTests {
    private static func retrieve(
        _ environment: [String: String], timeout: Duration = .seconds(10), responseTimeout: Duration = .seconds(10)
    ) throws -> [UInt8] {
        let key = try SecretPortal.retrieveKey(timeout: timeout, responseTimeout: responseTimeout, environment: environment)
        return key.withBytes { Array($0) }
    }

    @Test("The portal gives 64 bytes, the same each time, so a file keyed by them opens again")
    func stableKey() throws {
        let sandbox = try PortalSandbox()
        defer { sandbox.stop() }
        let first = try Self.retrieve(sandbox.appEnvironment())
        let second = try Self.retrieve(sandbox.appEnvironment())
        #expect(first.count == 64)
        #expect(first == second)
        #expect(Set(first).count > 8, "64 random bytes, not a constant")
    }

    @Test("The key survives a restart of the portal, since its backend keeps it")
    func keyAfterPortalRestart() throws {
        let sandbox = try PortalSandbox()
        defer { sandbox.stop() }
        let first = try Self.retrieve(sandbox.appEnvironment())
        try sandbox.restartPortal()
        #expect(try Self.retrieve(sandbox.appEnvironment()) == first)
    }

    @Test("No portal on the bus: noSecretPortal, saying there is no xdg-desktop-portal")
    func noPortal() throws {
        let sandbox = try SecretServiceSandbox(.busAndDaemon)
        defer { sandbox.stop() }
        let error = try #require(throws: KeyringError.self) { try Self.retrieve(sandbox.environment) }
        #expect(error.unavailability?.kind == .noSecretPortal)
        #expect(error.description.contains("no xdg-desktop-portal on the session bus"))
        #expect(error.description.contains("Secret portal"))
        guard case .unavailable(let reason) = SecretPortal.probe(timeout: .seconds(5), environment: sandbox.environment)
        else {
            Issue.record("a bus without a portal probed as available")
            return
        }
        #expect(reason.contains("no xdg-desktop-portal"))
    }

    @Test("A portal without a Secret backend: noSecretPortal, saying so")
    func noBackend() throws {
        let sandbox = try PortalSandbox(.noBackendFile)
        defer { sandbox.stop() }
        let error = try #require(throws: KeyringError.self) { try Self.retrieve(sandbox.appEnvironment()) }
        #expect(error.unavailability?.kind == .noSecretPortal)
        #expect(error.description.contains("has no Secret backend"))
    }

    @Test("A backend that fails: noSecretPortal, at once, not at the bound")
    func backendFails() throws {
        let sandbox = try PortalSandbox(.backendNotRunning)
        defer { sandbox.stop() }
        let error = try #require(throws: KeyringError.self) {
            try Self.retrieve(sandbox.appEnvironment(), responseTimeout: .seconds(600))
        }
        #expect(error.unavailability?.kind == .noSecretPortal)
        #expect(error.description.contains("gave no secret"))
    }

    @Test("A portal that does not answer: timedOut naming the portal")
    func frozenPortal() throws {
        let sandbox = try PortalSandbox()
        defer { sandbox.stop() }
        sandbox.freezePortal()
        let error = try #require(throws: KeyringError.self) {
            try Self.retrieve(sandbox.appEnvironment(), timeout: .seconds(1))
        }
        #expect(error.code == .timedOut)
        #expect(error.operation?.contains("Secret portal") == true)
    }

    @Test("A backend that never answers: timedOut naming the portal")
    func frozenBackend() throws {
        let sandbox = try PortalSandbox()
        defer { sandbox.stop() }
        let environment = try sandbox.appEnvironment()
        // The portal answers its version itself; the secret needs gnome-keyring. xdg-desktop-portal
        // 1.16 reaches its backend before it replies to RetrieveSecret, so the call itself waits.
        sandbox.services.freezeDaemon()
        let error = try #require(throws: KeyringError.self) {
            try Self.retrieve(environment, timeout: .seconds(5), responseTimeout: .seconds(1))
        }
        #expect(error.code == .timedOut)
        #expect(error.operation?.contains("Secret portal") == true, "\(error)")
    }

    @Test("libsecret's sandbox test: /.flatpak-info, or SNAP_NAME set even empty")
    func sandboxDetection() throws {
        let folder = try TemporaryFolder.make()
        let missing = folder.appendingPathComponent("no-flatpak-info").path
        #expect(AppSandbox.reason(environment: [:], flatpakInfo: missing) == nil)
        #expect(AppSandbox.reason(environment: ["SNAP_NAME": "x"], flatpakInfo: missing) == "SNAP_NAME is set (a Snap sandbox)")
        #expect(AppSandbox.reason(environment: ["SNAP_NAME": ""], flatpakInfo: missing) != nil)
        let info = folder.appendingPathComponent("flatpak-info")
        try Data("[Application]\nname=org.example.App\n".utf8).write(to: info)
        #expect(AppSandbox.reason(environment: [:], flatpakInfo: info.path) == "\(info.path) exists (a Flatpak sandbox)")
    }
}
