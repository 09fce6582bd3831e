import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// The tool at a locked Secret Service where no unlock prompt can be shown (SSH, a container):
/// the one line names the command that unlocks it from there.
@Suite("CLI advice at a locked Secret Service")
struct LockedServiceAdviceCLITests {
    @Test("set into a locked collection with no display: exit 69, naming swift-keyring unlock; with one, the prompt too")
    func lockedWithoutDisplay() throws {
        let sandbox = try SecretServiceSandbox(.busAndDaemon)
        defer { sandbox.stop() }
        let keyring = try Keyring(service: "test.advice", store: SecretServiceStore(environment: sandbox.environment))
        try keyring.set(try Samples.credentials(), forKey: "work")
        try sandbox.lockDefaultCollection()
        var environment = sandbox.environment
        environment["SWIFT_KEYRING_BACKEND"] = "secret-service"
        environment["SWIFT_KEYRING_SERVICE"] = "test.advice"
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        let arguments = [Command.tool, "set", "other", "--username", "u", "--url", "https://x.example"]
        let set = try ChildProcess.run(arguments, environment: environment, input: Data("pw".utf8), timeout: .seconds(60))
        #expect(set.status == 69)
        #expect(set.standardError.contains("is locked"), "\(set.standardError)")
        #expect(set.standardError.contains("run `swift-keyring unlock`"), "\(set.standardError)")
        #expect(!set.standardError.contains("logging in to the desktop"))
    }
}
