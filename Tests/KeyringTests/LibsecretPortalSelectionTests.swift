import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// Where libsecret's file is chosen without a working portal, and how its key is then
/// found: what a sandboxed app without a portal, or a host that asks for the file, sees.
@Suite("libsecret file and the Secret portal: selection")
struct LibsecretPortalSelectionTests {
    /// An environment on `base`'s bus with a data folder of its own and none of our settings.
    private func app(_ base: [String: String]) throws -> [String: String] {
        var environment = base
        environment["XDG_DATA_HOME"] = try TemporaryFolder.make().path
        for name in [
            "SNAP_NAME", "SWIFT_KEYRING_BACKEND", "SWIFT_KEYRING_PASSPHRASE", "SWIFT_KEYRING_PASSPHRASE_FILE",
            "SWIFT_KEYRING_KEY_FILE", "SWIFT_KEYRING_LIBSECRET_KEY",
        ] {
            environment.removeValue(forKey: name)
        }
        return environment
    }

    @Test("In a Snap without a portal, auto keeps to the Secret Service, as libsecret does, and says why")
    func sandboxWithoutPortal() throws {
        let sandbox = try SecretServiceSandbox(.busAndDaemon)
        defer { sandbox.stop() }
        var environment = try app(sandbox.environment)
        environment["SNAP_NAME"] = "x"
        let selection = try Keyring.selection(for: KeyringConfiguration(environment: environment))
        #expect(selection.kind == .secretService)
        #expect(selection.reason.contains("inside a sandbox (SNAP_NAME is set (a Snap sandbox)) but no Secret portal"))
        #expect(selection.keySource == nil)
    }

    @Test("Asked for without a portal: keyed by the passphrase, and secret-tool's password-keyed backend reads it")
    func explicitWithoutPortal() throws {
        let sandbox = try SecretServiceSandbox(.busOnly)
        defer { sandbox.stop() }
        var environment = try app(sandbox.environment)
        environment["SWIFT_KEYRING_BACKEND"] = "libsecret-file"
        environment["SWIFT_KEYRING_PASSPHRASE"] = "correct horse battery"
        let keyring = try Keyring(service: "com.example.pw", configuration: KeyringConfiguration(environment: environment))
        #expect(keyring.selection.kind == .libsecretFile)
        #expect(keyring.selection.keySource?.hasPrefix("a passphrase or key, as the encrypted file finds one") == true)
        #expect(keyring.selection.keySource?.hasSuffix("because one is set (passphrase (hidden))") == true)
        try keyring.setSecret(Data("pw-keyed".utf8), forKey: "k")
        let file = URL(fileURLWithPath: environment["XDG_DATA_HOME"]!).appendingPathComponent("keyrings/default.keyring")
        var tool = ProcessInfo.processInfo.environment
        tool["DBUS_SESSION_BUS_ADDRESS"] = nil
        tool["SECRET_BACKEND"] = "file"
        tool["SECRET_FILE_TEST_PATH"] = file.path
        tool["SECRET_FILE_TEST_PASSWORD"] = "correct horse battery"
        let lookup = try Command.run("secret-tool", ["lookup", "service", "com.example.pw", "key", "k"], environment: tool)
        #expect(lookup.text == "pw-keyed")
    }

    @Test("SWIFT_KEYRING_LIBSECRET_KEY=portal with no portal: noSecretPortal from libsecret's file, and no file made")
    func portalRequiredButMissing() throws {
        let sandbox = try SecretServiceSandbox(.busOnly)
        defer { sandbox.stop() }
        var environment = try app(sandbox.environment)
        environment["SWIFT_KEYRING_BACKEND"] = "libsecret-file"
        environment["SWIFT_KEYRING_LIBSECRET_KEY"] = "portal"
        environment["SWIFT_KEYRING_PASSPHRASE"] = "not used"
        let selection = try Keyring.selection(for: KeyringConfiguration(environment: environment))
        #expect(
            selection.keySource == "the Secret portal's secret for this app (org.freedesktop.portal.Secret), "
                + "because SWIFT_KEYRING_LIBSECRET_KEY is portal")
        let error = try #require(throws: KeyringError.self) {
            _ = try Keyring(service: "com.example.none", configuration: KeyringConfiguration(environment: environment))
        }
        #expect(error.unavailability?.kind == .noSecretPortal)
        #expect(error.place == .libsecretFile)
        let file = URL(fileURLWithPath: environment["XDG_DATA_HOME"]!).appendingPathComponent("keyrings/default.keyring")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("SWIFT_KEYRING_LIBSECRET_KEY with an unknown word: invalidConfiguration naming it, whichever store")
    func unknownKeyWord() throws {
        var environment = try app(ProcessInfo.processInfo.environment)
        environment["SWIFT_KEYRING_BACKEND"] = "memory"
        environment["SWIFT_KEYRING_LIBSECRET_KEY"] = "tpm"
        #expect(
            throws: KeyringError.invalidConfiguration(
                setting: "SWIFT_KEYRING_LIBSECRET_KEY", reason: "must be one of auto, portal, passphrase, not \"tpm\"")
        ) {
            _ = try Keyring.selection(for: KeyringConfiguration(environment: environment))
        }
    }

    @Test("In a sandbox the portal keys the file even with a passphrase set, as libsecret keys it; the setting can say otherwise")
    func sandboxKeyedByPortal() throws {
        let sandbox = try PortalSandbox()
        defer { sandbox.stop() }
        var environment = try sandbox.appEnvironment()
        environment["SWIFT_KEYRING_PASSPHRASE"] = "set for the encrypted file"
        let selection = try Keyring.selection(for: KeyringConfiguration(environment: environment))
        #expect(selection.kind == .libsecretFile)
        #expect(selection.keySource?.hasSuffix("because libsecret keys its file so inside a sandbox") == true)
        environment["SWIFT_KEYRING_LIBSECRET_KEY"] = "passphrase"
        let asked = try Keyring.selection(for: KeyringConfiguration(environment: environment))
        #expect(asked.kind == .libsecretFile)
        #expect(asked.keySource?.hasSuffix("because SWIFT_KEYRING_LIBSECRET_KEY is passphrase") == true)
    }

    @Test("Asked for outside a sandbox, a passphrase the app gives wins over a portal that answers")
    func givenSecretWins() throws {
        let sandbox = try PortalSandbox()
        defer { sandbox.stop() }
        var configuration = KeyringConfiguration(environment: try sandbox.appEnvironment(snap: nil))
        configuration.store = .libsecretFile
        configuration.fileSecret = .passphrase("given by the app")
        let selection = try Keyring.selection(for: configuration)
        #expect(selection.reason == "asked for by the caller")
        #expect(selection.keySource?.hasSuffix("because one is set (passphrase (hidden))") == true)
    }
}
