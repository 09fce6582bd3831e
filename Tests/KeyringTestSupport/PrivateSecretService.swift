import Foundation
import SwiftKeyring

/// The private Secret Service that `Scripts/with-secret-service.sh` (gnome-keyring),
/// `Scripts/with-keepassxc.sh` (KeePassXC) or `Scripts/with-kwallet.sh` (KWallet)
/// starts for the test run.
///
/// Tests that need it fail, never skip, when it is missing: the Secret Service
/// store must really be tested, in CI above all, and never against the
/// developer's own keyring.
package enum PrivateSecretService {
    package struct Missing: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// Which daemon serves the private Secret Service.
    package enum Daemon: String, Sendable {
        case gnomeKeyring = "gnome-keyring"
        case keepassxc
        case kwallet
    }

    /// The daemon of this run: `SWIFT_KEYRING_TEST_DAEMON`, which `Scripts/with-keepassxc.sh`
    /// sets to `keepassxc` and `Scripts/with-kwallet.sh` to `kwallet`; gnome-keyring otherwise.
    package static var daemon: Daemon {
        ProcessInfo.processInfo.environment["SWIFT_KEYRING_TEST_DAEMON"].flatMap(Daemon.init(rawValue:)) ?? .gnomeKeyring
    }

    /// The environment of the private Secret Service.
    /// - Throws: `Missing`, saying how to run the tests, when this process is not inside the script.
    package static func environment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [String:
        String]
    {
        guard environment["SWIFT_KEYRING_PRIVATE_SECRET_SERVICE"] == "1",
            let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty
        else {
            let situation = environment["CI"] == "true" ? "CI could not start it" : "the tests ran outside it"
            throw Missing(
                description: "the private Secret Service is missing (\(situation)): run the tests with "
                    + "Scripts/with-secret-service.sh swift test (or Scripts/test.sh)")
        }
        return environment
    }

    /// A new store on the private Secret Service.
    package static func makeStore(
        timeout: Duration = .seconds(10),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> SecretServiceStore {
        try SecretServiceStore(timeout: timeout, environment: Self.environment(environment))
    }

    /// Runs `secret-tool` against the private Secret Service.
    package static func secretTool(_ arguments: [String], input: Data = Data()) throws -> ChildProcess.Output {
        try ChildProcess.run(["secret-tool"] + arguments, environment: environment(), input: input)
    }

    /// The secret `secret-tool lookup` prints for these attributes; `nil` when it finds none.
    package static func lookup(_ attributes: [String: String]) throws -> Data? {
        let output = try secretTool(["lookup"] + arguments(attributes))
        return output.status == 0 ? output.standardOutput : nil
    }

    /// How many items `secret-tool search --all` finds for these attributes.
    package static func itemCount(_ attributes: [String: String]) throws -> Int {
        let output = try secretTool(["search", "--all"] + arguments(attributes))
        // Each item's block starts with its path in brackets, such as "[/org/freedesktop/secrets/collection/login/3]".
        let text = String(decoding: output.standardOutput, as: UTF8.self) + output.standardError
        return text.split(separator: "\n").filter { $0.hasPrefix("[/") }.count
    }

    private static func arguments(_ attributes: [String: String]) -> [String] {
        attributes.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
    }
}
