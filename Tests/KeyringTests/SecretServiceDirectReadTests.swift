import Foundation
import KeyringTestKit
import KeyringTestSupport
import SwiftKeyring
import Testing

/// The direct read (`Keyring.directPassword`, `Keyring.directChosenPassword`): the tool's and
/// the git helper's `get` on a D-Bus connection of their own, without GIO. On the private
/// daemon it answers what the keyring answers; where the keyring must decide (no record,
/// duplicates, a misbehaving daemon) it gives `nil`, never another answer.
@Suite("The Secret Service read without GIO")
struct SecretServiceDirectReadTests {
    /// The keyring's configurations a direct read stands in for: the Secret Service asked
    /// for, and `auto` (which probes first).
    private static func configurations(_ environment: [String: String]) -> [KeyringConfiguration] {
        [.secretService, .auto].map { KeyringConfiguration(store: $0, timeout: .seconds(30), environment: environment) }
    }

    /// The bound on each read here: the tests beside these load the daemon on purpose, and a
    /// read slower than the tool's bound (the selection probe's second) is left to the
    /// keyring, as it should be, which would hide whether it could have answered.
    private static let bound: Duration = .seconds(30)

    /// Whether a direct read of `key` answers, and with `password` when one is given (with
    /// `bound`, else the tool's own): a Bool, so that a failed expectation names the record,
    /// never prints its password.
    private static func directlyReads(
        _ key: String, _ service: String, _ configuration: KeyringConfiguration, password: String? = nil,
        bound: Duration? = Self.bound
    ) -> Bool {
        let read =
            if let bound {
                Keyring.directPassword(forKey: key, service: service, configuration: configuration, bound: bound)
            } else {
                Keyring.directPassword(forKey: key, service: service, configuration: configuration)
            }
        guard let read else { return false }
        return password.map { Array(read.utf8) == Array($0.utf8) } ?? true
    }

    @Test("Every password the store wrote reads back the same, directly")
    func readsWhatTheStoreWrote() throws {
        let environment = try PrivateSecretService.environment()
        let service = TestStore.uniqueService("direct")
        let keyring = try Keyring(service: service, store: PrivateSecretService.makeStore())
        defer { _ = try? keyring.removeAll() }
        let passwords = ConformanceChecks.hardPasswords
        for (index, password) in passwords.enumerated() {
            try keyring.set(try Samples.credentials("user \(index)", password: password), forKey: "key \(index) 🔑")
        }
        for configuration in Self.configurations(environment) {
            var unanswered = 0
            for (index, password) in passwords.enumerated() {
                let direct = Keyring.directPassword(
                    forKey: "key \(index) 🔑", service: service, configuration: configuration, bound: Self.bound)
                if let direct {
                    // A Bool, so that a failure names the record, not its password (64 KiB of it for some).
                    let same = Array(direct.utf8) == Array(password.utf8)
                    #expect(same, "record \(index) read directly differs")
                } else {
                    unanswered += 1
                }
            }
            let stored = try keyring.credentials(forKey: "key 1 🔑")
            let direct = Keyring.directCredentials(
                forKey: "key 1 🔑", service: service, configuration: configuration, bound: Self.bound)
            #expect(direct == nil || direct == stored, "the credentials read directly differ")
            if direct == nil { unanswered += 1 }
            // Each is plain: one unlocked item; a key exchange the daemons could disagree on (one
            // in 256, see `DHKeyAgreement.key(peer:)`) is followed by another, not left to the keyring.
            #expect(unanswered == 0, "\(unanswered) of \(passwords.count + 1) reads were left to the keyring")
        }
    }

    @Test("No record, another kind, or two items for one record: the keyring is asked")
    func leavesTheUnplainToTheKeyring() throws {
        let environment = try PrivateSecretService.environment()
        let service = TestStore.uniqueService("direct-unplain")
        let keyring = try Keyring(service: service, store: PrivateSecretService.makeStore())
        defer { _ = try? keyring.removeAll() }
        try keyring.setSecret(Data("generic".utf8), forKey: "a-secret")
        try keyring.set(try Samples.credentials(password: "first"), forKey: "twice")
        // A second item with the same identity, as another program could add (one more attribute,
        // so the daemon adds it rather than replace ours): the store picks between them.
        let planted = try PrivateSecretService.secretTool(
            [
                "store", "--label", "duplicate", "tag", "swift-keyring", "service", service, "key", "twice", "kind",
                "credentials", "added-by", "another program",
            ],
            input: Data("second".utf8))
        #expect(planted.status == 0, "secret-tool store failed: \(planted.standardError)")
        for configuration in Self.configurations(environment) {
            #expect(!Self.directlyReads("missing", service, configuration))
            #expect(!Self.directlyReads("a-secret", service, configuration))
            #expect(!Self.directlyReads("twice", service, configuration))
        }
        #expect(try keyring.password(forKey: "twice") != nil, "the keyring reads one of the two")
        // An invalid setting is the keyring's to report, even with the record there.
        var broken = KeyringConfiguration(store: .secretService, environment: environment)
        broken.environment["SWIFT_KEYRING_PROMPT_TIMEOUT"] = "soon"
        try keyring.set(try Samples.credentials(password: "plain"), forKey: "plain")
        #expect(!Self.directlyReads("plain", service, broken))
        #expect(Self.directlyReads("plain", service, Self.configurations(environment)[0]))
    }

    @Test("The record chosen among the service's is the one the keyring chooses")
    func choosesAsTheKeyring() throws {
        let environment = try PrivateSecretService.environment()
        let service = TestStore.uniqueService("direct-chosen")
        let keyring = try Keyring(service: service, store: PrivateSecretService.makeStore())
        defer { _ = try? keyring.removeAll() }
        for (key, password) in [("b", "pw-b"), ("a", "pw-a"), ("c", "pw-c")] {
            try keyring.set(try Samples.credentials("user-\(key)", password: password), forKey: key)
        }
        try keyring.setSecret(Data("not offered".utf8), forKey: "0-secret")
        for configuration in Self.configurations(environment) {
            var offered: [String] = []
            let first = Keyring.directChosenPassword(service: service, configuration: configuration, bound: Self.bound) { keys in
                offered = keys.sorted()
                return keys.sorted()
            }
            #expect(offered == ["a", "b", "c"], "the keys offered: \(offered)")
            // Bools, so that a failure prints the keys, not the passwords.
            let firstIsA = first?.key == "a" && first?.password == "pw-a"
            #expect(firstIsA, "chosen first: \(first?.key ?? "none")")
            let direct = Keyring.directChosenPassword(service: service, configuration: configuration, bound: Self.bound) {
                _ in ["c"]
            }
            let kept = try keyring.chosenPassword { _ in ["c"] }
            let sameAsKept = direct != nil && direct?.key == kept?.key && direct?.password == kept?.password
            #expect(sameAsKept, "chosen directly: \(direct?.key ?? "none"), by the keyring: \(kept?.key ?? "none")")
            // A first choice that no item holds: the keyring looks each choice up, in order.
            let past: ([String]) -> [String] = { _ in ["missing", "b"] }
            #expect(
                Keyring.directChosenPassword(service: service, configuration: configuration, bound: Self.bound, choosing: past)?
                    .key == nil)
            #expect(try keyring.chosenPassword(choosing: past)?.key == "b")
            #expect(
                Keyring.directChosenPassword(service: service, configuration: configuration, bound: Self.bound) { _ in ["missing"]
                }?.key == nil)
        }
    }

    @Test("Against a daemon that misbehaves, the read gives nil and the keyring's answer stands")
    func misbehavingDaemon() throws {
        let fake = try FakeSecretService(.normal)
        let service = "fake-direct"
        try Keyring(service: service, store: fake.makeStore()).set(try Samples.credentials(password: "ours"), forKey: "work")
        let configuration = KeyringConfiguration(store: .secretService, timeout: .seconds(10), environment: fake.environment)
        // A daemon without the key exchange: the plain transfer, as the store makes it.
        #expect(Self.directlyReads("work", service, configuration, password: "ours", bound: nil))
        for mode in [FakeSecretService.Mode.foreignHit, .wrongAttributesType, .wrongSecretsType, .hugeSecret] {
            try fake.setMode(mode)
            #expect(!Self.directlyReads("work", service, configuration, bound: nil), "\(mode) gave an answer")
        }
        // A daemon that never answers the search: nil within the probe's bound, not the store's 10 s.
        try fake.setMode(.stallSearch)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(!Self.directlyReads("work", service, configuration, bound: nil))
        let took = clock.now - start
        #expect(took < .seconds(4), "the read took \(took)")
    }
}
