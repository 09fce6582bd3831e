import Foundation
import SwiftKeyring
import Testing

/// The unlock prompt's bound, spelled three ways: a bad value is a clear error naming where it came from.
@Suite("Prompt timeout configuration")
struct PromptTimeoutConfigurationTests {
    @Test("Unset: 120 s; the variable in seconds; an explicit value wins over the variable")
    func sources() throws {
        #expect(try KeyringConfiguration(environment: [:]).requestedPromptTimeout() == .seconds(120))
        #expect(
            try KeyringConfiguration(environment: ["SWIFT_KEYRING_PROMPT_TIMEOUT": "45"]).requestedPromptTimeout() == .seconds(45)
        )
        #expect(
            try KeyringConfiguration(environment: ["SWIFT_KEYRING_PROMPT_TIMEOUT": "2.5"]).requestedPromptTimeout()
                == .milliseconds(2500))
        let explicit = KeyringConfiguration(promptTimeout: .seconds(7), environment: ["SWIFT_KEYRING_PROMPT_TIMEOUT": "45"])
        #expect(try explicit.requestedPromptTimeout() == .seconds(7))
    }

    @Test(
        "A bad SWIFT_KEYRING_PROMPT_TIMEOUT: opening any keyring fails, naming the variable",
        arguments: ["soon", "0", "-1", "1e2", " 5", "inf"])
    func badVariable(_ value: String) {
        let configuration = KeyringConfiguration(store: .memory, environment: ["SWIFT_KEYRING_PROMPT_TIMEOUT": value])
        #expect {
            _ = try Keyring(service: "test.prompt-timeout", configuration: configuration)
        } throws: { error in
            guard let error = error as? KeyringError, error.code == .invalidConfiguration, let setting = error.setting else {
                return false
            }
            return setting == "SWIFT_KEYRING_PROMPT_TIMEOUT"
        }
    }

    @Test("A prompt bound of zero: the store refuses it, naming promptTimeout")
    func zeroForStore() {
        #expect(throws: KeyringError.invalidConfiguration(setting: "promptTimeout", reason: "must be longer than zero")) {
            _ = try SecretServiceStore(promptTimeout: .zero, environment: [:])
        }
        #expect(throws: KeyringError.invalidConfiguration(setting: "promptTimeout", reason: "must be longer than zero")) {
            _ = try KeyringConfiguration(promptTimeout: .seconds(-1)).requestedPromptTimeout()
        }
    }
}
