import Foundation
import KeyringEtcd
import KeyringTestSupport
import SwiftKeyring
import Testing

/// Each call's bound holds while members stop answering (SIGSTOP): one deadline for the whole
/// call, however many members, rounds and token renewals it takes. On clusters of the tests' own,
/// since they are broken on purpose.
@Suite("etcd store deadline")
struct DeadlineTests {
    /// The bound the stores here are configured with.
    static let bound = Duration.seconds(2)
    /// Time to notice a spent deadline and unwind, on a busy test machine.
    static let margin = Duration.milliseconds(1500)

    @Test("With every member stopped, each call throws .timedOut within its bound, and doctor's check ends within it")
    func everyMemberStopped() throws {
        let cluster = try EtcdCluster.start()
        defer { Self.release(cluster) }
        let prefix = Fixtures.prefix()
        let keyFile = try Fixtures.keyFile()
        let keyring = try Keyring(
            service: Fixtures.service(), store: Fixtures.store(cluster, prefix: prefix, keyFile: keyFile, timeout: Self.bound))
        let credentials = try Fixtures.credentials("alice")
        // A record there already, so a save takes two rounds: one to learn its revision, one to replace it.
        try keyring.set(credentials, forKey: "k")
        for n in 1...3 { try cluster.pause(n) }

        let calls: [(String, () throws -> Void)] = [
            ("set", { try keyring.set(credentials, forKey: "k") }),
            ("credentials", { _ = try keyring.credentials(forKey: "k") }),
            ("password", { _ = try keyring.password(forKey: "k") }),
            ("remove", { _ = try keyring.remove(forKey: "k") }),
            ("list", { _ = try keyring.list() }),
            ("removeAll", { _ = try keyring.removeAll() }),
            ("opening a store", { _ = try Fixtures.store(cluster, prefix: prefix, keyFile: keyFile, timeout: Self.bound) }),
        ]
        for (name, call) in calls {
            let (took, error) = Self.time(call)
            #expect(took < Self.bound + Self.margin, "\(name) took \(took)")
            #expect(Self.isTimedOut(error, bound: Self.bound), "\(name) threw \(String(describing: error))")
        }

        // doctor's check asks each member, then the cluster for its members: all within the one bound.
        let configuration = try EtcdConfiguration(
            endpoints: cluster.endpoints, prefix: prefix, timeout: Self.bound, environment: [:])
        var health: EtcdHealth?
        let took = ContinuousClock().measure { health = EtcdHealth.check(configuration) }
        #expect(took < Self.bound + Self.margin, "the health check took \(took)")
        #expect(health?.members.count == 3)
        #expect(health?.members.allSatisfy { !$0.healthy } == true)
        #expect(health?.memberCount == nil)
    }

    @Test("A token renewal spends what is left of the call's bound, not a bound of its own")
    func tokenRenewalWithinTheBound() throws {
        let cluster = try EtcdCluster.start()
        defer { Self.release(cluster) }
        let prefix = Fixtures.prefix()
        let password = "etcd-pw-\(UUID().uuidString.prefix(8))"
        let passwordFile = try EtcdUsers.enableAuthentication(on: cluster, prefix: prefix, password: password)
        // Four seconds, so that a renewal with a bound of its own (half the bound silent on member 1,
        // then a whole bound for the login: 6 s) is told apart from one within the bound.
        let timeout = Duration.seconds(4)
        let store = try EtcdStore(
            configuration: EtcdConfiguration(
                endpoints: cluster.endpoints, prefix: prefix, timeout: timeout, secret: .keyFile(try Fixtures.keyFile()),
                user: EtcdUsers.user, passwordFile: passwordFile, allowsInsecureAuthentication: true,
                stateFolder: Fixtures.hostState, environment: [:]))
        let keyring = try Keyring(service: Fixtures.service(), store: store)
        let credentials = try Fixtures.credentials("alice")
        // The store now holds a token, and member 1 is the member it asks first.
        try keyring.set(credentials, forKey: "k")
        try EtcdUsers.invalidateTokens(at: cluster.endpoints[1], password: password)

        // Member 1 is silent; member 2, left without a quorum, refuses the stale token at once
        // (a write checks it before it needs the others) but cannot log anyone in.
        try cluster.pause(1)
        try cluster.pause(3)
        let (took, error) = Self.time { try keyring.set(credentials, forKey: "k") }
        #expect(took < timeout + Self.margin, "the set took \(took)")
        #expect(Self.isTimedOut(error, bound: timeout), "the set threw \(String(describing: error))")
    }

    /// How long `call` took, and what it threw.
    private static func time(_ call: () throws -> Void) -> (Duration, (any Error)?) {
        var thrown: (any Error)?
        let took = ContinuousClock().measure {
            do { try call() } catch { thrown = error }
        }
        return (took, thrown)
    }

    /// Whether `error` is `.timedOut` reporting the configured bound (not what was left of it).
    private static func isTimedOut(_ error: (any Error)?, bound: Duration) -> Bool {
        guard let error = error as? KeyringError, error.code == .timedOut, let seconds = error.seconds else { return false }
        return seconds == bound.inSeconds
    }

    /// Continues every member, so none is left stopped, then stops the cluster.
    private static func release(_ cluster: EtcdCluster) {
        for n in 1...3 { cluster.resume(n) }
        cluster.stop()
    }
}
