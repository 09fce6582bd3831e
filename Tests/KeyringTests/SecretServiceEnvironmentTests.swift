import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// The Secret Service tests run against a real daemon, and fail rather than skip without one.
@Suite("Secret Service test environment")
struct SecretServiceEnvironmentTests {
    @Test("The private Secret Service of the test script is running, unlocked, and probes available")
    func privateSecretServiceIsThere() throws {
        let environment = try PrivateSecretService.environment()
        #expect(SecretServiceStore.probe(timeout: .seconds(2), environment: environment) == .available)
        #expect(try PrivateSecretService.makeStore().isLocked() == false)
    }

    @Test("In CI without the private Secret Service, its tests fail instead of skipping")
    func missingInCIFails() throws {
        let ci = ["CI": "true", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"]
        #expect(throws: PrivateSecretService.Missing.self) { try PrivateSecretService.environment(ci) }
        #expect(throws: PrivateSecretService.Missing.self) { try PrivateSecretService.environment(["CI": "true"]) }
        #expect(throws: PrivateSecretService.Missing.self) {
            try Keyring(service: "test.ci", store: PrivateSecretService.makeStore(environment: ["CI": "true"]))
        }
        let inside = ["SWIFT_KEYRING_PRIVATE_SECRET_SERVICE": "1", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/tmp/bus"]
        #expect(try PrivateSecretService.environment(inside) == inside)
    }
}
