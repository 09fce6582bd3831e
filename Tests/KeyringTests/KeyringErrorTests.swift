import Foundation
import Keyring
import Testing

/// What a program and a person get from a `KeyringError`: cases to switch on, and one sentence.
@Suite("Keyring errors")
struct KeyringErrorTests {
    static let samples: [KeyringError] = [
        .notFound(key: "work"),
        .invalidRecord(field: "url", reason: "must name a host"),
        .invalidConfiguration(
            setting: "SWIFT_KEYRING_BACKEND", reason: "must be one of auto, secret-service, file, memory, not \"x\""),
        .serviceUnavailable(reason: .noSessionBus(detail: "DBUS_SESSION_BUS_ADDRESS is not set")),
        .serviceUnavailable(reason: .noDaemon(detail: "org.freedesktop.secrets has no owner")),
        .serviceUnavailable(reason: .daemonGone(detail: "the daemon left the bus")),
        .serviceUnavailable(reason: .noKeyringFile(path: "/tmp/k.skr")),
        .serviceUnavailable(reason: .noFolder(path: "/tmp/gone")),
        .locked,
        .promptDismissed,
        .promptTimedOut(operation: "read s/work (credentials)", seconds: 3),
        .timedOut(operation: "lookup", seconds: 5),
        .passphraseRequired(sources: ["SWIFT_KEYRING_PASSPHRASE"]),
        .wrongPassphrase,
        .damaged(reason: "the file MAC does not match"),
        .insecurePermissions(path: "/tmp/k.skr", reason: "its mode 0644 lets other users read it"),
        .backend(domain: "g-io-error-quark", code: 1, message: "no such file"),
    ]

    @Test(
        "localizedDescription is the error's sentence, not Foundation's \"The operation could not be completed\"",
        arguments: samples)
    func localizedDescription(error: KeyringError) {
        let asError: any Error = error
        #expect(asError.localizedDescription == error.description)
        #expect(!asError.localizedDescription.contains("could not be completed"))
    }

    @Test("The sentences a person reads")
    func sentences() {
        #expect(
            KeyringError.serviceUnavailable(reason: .noSessionBus(detail: "no address")).localizedDescription
                == "The keyring is unavailable: no session bus: no address.")
        #expect(
            KeyringError.invalidConfiguration(setting: "SWIFT_KEYRING_PROMPT_TIMEOUT", reason: "must be a number")
                .localizedDescription
                == "Invalid SWIFT_KEYRING_PROMPT_TIMEOUT: must be a number.")
        #expect(
            KeyringError.promptTimedOut(operation: "read s/work (credentials)", seconds: 2.5).localizedDescription
                == "Nobody answered the unlock prompt to read s/work (credentials) within 2.5 s.")
    }

    @Test("A program switches on why the store is unavailable, whatever the detail says")
    func switchOnUnavailability() {
        func advice(_ error: KeyringError) -> String {
            switch error {
            case .serviceUnavailable(.noSessionBus), .serviceUnavailable(.noDaemon), .serviceUnavailable(.daemonGone):
                return "use the file"
            case .serviceUnavailable(.noKeyringFile), .serviceUnavailable(.noFolder):
                return "create the file"
            case .invalidConfiguration:
                return "fix the setting"
            default:
                return "other"
            }
        }
        #expect(advice(.serviceUnavailable(reason: .noSessionBus(detail: "anything at all"))) == "use the file")
        #expect(advice(.serviceUnavailable(reason: .daemonGone(detail: ""))) == "use the file")
        #expect(advice(.serviceUnavailable(reason: .noKeyringFile(path: "/x"))) == "create the file")
        #expect(advice(.invalidConfiguration(setting: "pattern", reason: "r")) == "fix the setting")
        #expect(KeyringError.Unavailability.noDaemon(detail: "d").detail == "d")
    }

    @Test("An unknown SWIFT_KEYRING_BACKEND is a setting, not a record field")
    func settingsAreConfiguration() {
        let configuration = KeyringConfiguration(environment: ["SWIFT_KEYRING_BACKEND": "carrier-pigeon"])
        #expect {
            _ = try Keyring.selection(for: configuration)
        } throws: { error in
            guard case KeyringError.invalidConfiguration(let setting, _) = error else { return false }
            return setting == "SWIFT_KEYRING_BACKEND"
        }
    }
}
