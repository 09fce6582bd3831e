import Foundation
import SwiftKeyring
import Testing

/// What a program and a person get from a `KeyringError`: codes to match on, the store
/// that failed, and one sentence.
@Suite("Keyring errors")
struct KeyringErrorTests {
    static let samples: [KeyringError] = [
        .notFound(key: "work"),
        .invalidRecord(field: "url", reason: "must name a host"),
        .invalidConfiguration(
            setting: "SWIFT_KEYRING_BACKEND",
            reason: "must be one of auto, secret-service, file, memory, libsecret-file, kernel, not \"x\""),
        .serviceUnavailable(reason: .noSessionBus(detail: "DBUS_SESSION_BUS_ADDRESS is not set")),
        .serviceUnavailable(reason: .noDaemon(detail: "org.freedesktop.secrets has no owner")),
        .serviceUnavailable(reason: .daemonGone(detail: "the daemon left the bus")),
        .serviceUnavailable(reason: .noKeyringFile(path: "/tmp/k.skr")),
        .serviceUnavailable(reason: .noFolder(path: "/tmp/gone")),
        .serviceUnavailable(reason: .noCluster(detail: "every endpoint refused")),
        .locked,
        .promptDismissed,
        .confirmationDismissed,
        .promptTimedOut(operation: "read s/work (credentials)", seconds: 3),
        .timedOut(operation: "lookup", seconds: 5),
        .passphraseRequired(sources: ["SWIFT_KEYRING_PASSPHRASE"]),
        .wrongPassphrase,
        .damaged(reason: "the file MAC does not match"),
        .insecurePermissions(path: "/tmp/k.skr", reason: "its mode 0644 lets other users read it"),
        .backend(domain: "org.freedesktop.DBus.Error.FileNotFound", code: 1, message: "no such file"),
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
            switch (error.code, error.unavailability?.kind) {
            case (.serviceUnavailable, .noSessionBus?), (.serviceUnavailable, .noDaemon?), (.serviceUnavailable, .daemonGone?):
                return "use the file"
            case (.serviceUnavailable, .noKeyringFile?), (.serviceUnavailable, .noFolder?):
                return "create the file"
            case (.invalidConfiguration, _):
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

    @Test("A code matches in catch and in a switch, whatever the details, and a switch on codes has a default")
    func matchByCode() {
        func handled(_ error: any Error) -> String {
            do {
                throw error
            } catch KeyringError.Code.locked {
                return "unlock"
            } catch KeyringError.Unavailability.Kind.noSessionBus {
                return "no bus"
            } catch let error as KeyringError {
                switch error.code {
                case .damaged: return "damaged: \(error.reason ?? "")"
                case .notFound: return "missing \(error.key ?? "")"
                default: return "other \(error.code)"
                }
            } catch {
                return "not ours"
            }
        }
        #expect(handled(KeyringError.locked.placed(in: .secretService)) == "unlock")
        #expect(handled(KeyringError.serviceUnavailable(reason: .noSessionBus(detail: "x"))) == "no bus")
        #expect(handled(KeyringError.damaged(reason: "cut short").placed(in: .etcd)) == "damaged: cut short")
        #expect(handled(KeyringError.notFound(key: "work")) == "missing work")
        #expect(handled(KeyringError.confirmationDismissed) == "other confirmationDismissed")
        #expect(handled(CancellationError()) == "not ours")
        // The old spellings still match as patterns, comparing the details too.
        #expect(KeyringError.wrongPassphrase ~= (KeyringError.wrongPassphrase.placed(in: .etcd) as any Error))
        #expect(!(KeyringError.damaged(reason: "a") ~= (KeyringError.damaged(reason: "b") as any Error)))
    }

    @Test("Equal errors have equal codes and details; the place is where, not what, and is not compared")
    func equality() {
        let fromEtcd = KeyringError.damaged(reason: "r").placed(in: .etcd)
        #expect(fromEtcd == .damaged(reason: "r"))
        #expect(fromEtcd.place == .etcd)
        #expect(fromEtcd != .damaged(reason: "other"))
        #expect(KeyringError.locked != .promptDismissed)
        #expect(Set([fromEtcd, .damaged(reason: "r")]).count == 1)
        // A place once given is kept: the store that failed first is the one named.
        #expect(fromEtcd.placed(in: .keyringFile).place == .etcd)
    }

    @Test("Every message names the store that failed")
    func messagesNameTheStore() {
        let damaged = KeyringError.damaged(reason: "a record ends early")
        #expect(damaged.placed(in: .etcd).description == "The etcd record is damaged: a record ends early; it was left as it is.")
        #expect(
            damaged.placed(in: .keyringFile).description
                == "The keyring file is damaged: a record ends early; it was left as it is.")
        #expect(
            damaged.placed(in: .sessionStateFile).description
                == "The session state file is damaged: a record ends early; it was left as it is.")
        #expect(
            damaged.placed(in: .secretService).description
                == "The Secret Service item is damaged: a record ends early; it was left as it is.")
        #expect(
            damaged.placed(in: KeyringError.Place(store: StoreKind("vault"))).description
                == "The vault record is damaged: a record ends early; it was left as it is.")
        #expect(
            KeyringError.wrongPassphrase.placed(in: .etcd).description
                == "The passphrase or key does not open the etcd keyring.")
        #expect(
            KeyringError.passphraseRequired(sources: ["SWIFT_KEYRING_PASSPHRASE"]).placed(in: .etcd).description
                == "The etcd keyring needs a passphrase; give one through SWIFT_KEYRING_PASSPHRASE.")
        #expect(
            KeyringError.serviceUnavailable(reason: .noCluster(detail: "refused")).placed(in: .etcd).description
                == "The etcd keyring is unavailable: no etcd member could serve the call: refused.")
        #expect(
            KeyringError.locked.placed(in: .secretService).description
                == "The Secret Service collection is locked; unlock it (for example by logging in to the desktop) and try again.")
        #expect(
            KeyringError.confirmationDismissed.placed(in: .secretService).description
                == "The confirmation to store the new item in the Secret Service was dismissed; nothing was stored.")
        #expect(
            KeyringError.timedOut(operation: "a read", seconds: 5).placed(in: .keyringFile).description
                == "The keyring file did not answer a read within 5 s.")
        // Every code, in every place, says where.
        for sample in Self.samples {
            for place in [KeyringError.Place.secretService, .keyringFile, .etcd, .memory, .sessionStateFile] {
                let sentence = sample.placed(in: place).description
                let names = ["Secret Service", "keyring file", "etcd", "in-memory", "session state file"]
                #expect(names.contains { sentence.contains($0) }, "\(sample.code) in \(place): \(sentence)")
            }
        }
    }

    @Test("An unavailability kind matches in a switch, and a path kind gives the error its path")
    func unavailabilityKinds() {
        let noFile = KeyringError.serviceUnavailable(reason: .noKeyringFile(path: "/x/k.skr"))
        #expect(noFile.path == "/x/k.skr")
        #expect(noFile.unavailability?.kind == .noKeyringFile)
        switch noFile.unavailability! {
        case .noKeyringFile, .noFolder: break
        default: Issue.record("the path kinds did not match")
        }
        #expect(KeyringError.Unavailability.noCluster(detail: "d").kind.name == "noCluster")
    }

    @Test("MIGRATING.md's patterns compile and match what the old cases matched")
    func migrationPatterns() {
        func after(_ error: KeyringError) -> String {
            switch error.code {
            case .locked: return "locked"
            case .notFound: return "notFound \(error.key ?? "")"
            case .invalidRecord: return "invalidRecord \(error.field ?? "") \(error.reason ?? "")"
            case .serviceUnavailable where error.unavailability?.kind == .noDaemon: return "noDaemon"
            case .serviceUnavailable: return "unavailable \(error.unavailability?.detail ?? "")"
            case .timedOut: return "timedOut \(error.operation ?? "") \(error.seconds ?? 0)"
            case .backend: return "backend \(error.backendDomain ?? "") \(error.backendCode ?? 0) \(error.backendMessage ?? "")"
            default: return "other"
            }
        }
        #expect(after(.locked) == "locked")
        #expect(after(.notFound(key: "k")) == "notFound k")
        #expect(after(.invalidRecord(field: "url", reason: "r")) == "invalidRecord url r")
        #expect(after(.serviceUnavailable(reason: .noDaemon(detail: "d"))) == "noDaemon")
        #expect(after(.serviceUnavailable(reason: .noSessionBus(detail: "d"))) == "unavailable d")
        #expect(after(.timedOut(operation: "o", seconds: 2)) == "timedOut o 2.0")
        #expect(after(.backend(domain: "d", code: 3, message: "m")) == "backend d 3 m")

        func caught(_ error: KeyringError) -> String {
            do {
                throw error
            } catch KeyringError.locked {
                return "locked, as before"
            } catch KeyringError.Code.damaged {
                return "damaged"
            } catch KeyringError.Unavailability.Kind.noSessionBus, KeyringError.Unavailability.Kind.noDaemon {
                return "no Secret Service"
            } catch let error as KeyringError where error.code == .invalidRecord {
                return "field \(error.field ?? "")"
            } catch {
                return "other"
            }
        }
        #expect(caught(KeyringError.locked.placed(in: .secretService)) == "locked, as before")
        #expect(caught(.damaged(reason: "r")) == "damaged")
        #expect(caught(.serviceUnavailable(reason: .noDaemon(detail: "d"))) == "no Secret Service")
        #expect(caught(.invalidRecord(field: "username", reason: "r")) == "field username")
        #expect(caught(.wrongPassphrase) == "other")

        let reason = KeyringError.Unavailability.noDaemon(detail: "d")
        switch reason.kind {
        case .noDaemon: #expect(reason.detail == "d")
        default: Issue.record("the kind did not match")
        }
    }

    @Test("An unknown SWIFT_KEYRING_BACKEND is a setting, not a record field")
    func settingsAreConfiguration() {
        let configuration = KeyringConfiguration(environment: ["SWIFT_KEYRING_BACKEND": "carrier-pigeon"])
        #expect {
            _ = try Keyring.selection(for: configuration)
        } throws: { error in
            guard let error = error as? KeyringError, error.code == .invalidConfiguration, let setting = error.setting else {
                return false
            }
            return setting == "SWIFT_KEYRING_BACKEND"
        }
    }
}
