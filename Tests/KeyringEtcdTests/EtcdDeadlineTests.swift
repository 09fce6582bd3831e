import Foundation
import KeyringEtcd
import KeyringTestSupport
import SwiftKeyring
import Synchronization
import Testing

/// Each call's bound holds while members stop answering (SIGSTOP): one deadline for the whole
/// call, however many members, rounds and token renewals it takes. On clusters of the tests' own,
/// since they are broken on purpose.
///
/// What decides each test is what the silent members received, counted by gateways of the test's
/// own in front of them (`FakeGateway` logs every request before forwarding it to a member that
/// never answers), and the error: a member's turn is at most half the bound, so one deadline lets
/// a call reach two silent members, where a bound per member, per round or per renewal lets it
/// reach every one. The times are printed, as measurements; only a hang bound stops the run.
@Suite("etcd store deadline")
struct DeadlineTests {
    /// The bound the stores here are configured with.
    static let bound = Duration.seconds(2)

    @Test(
        "With every member stopped, each call throws .timedOut of its bound before reaching every member, and doctor's check asks each member once"
    )
    func everyMemberStopped() throws {
        let cluster = try EtcdCluster.start()
        defer { Self.release(cluster) }
        // Six endpoints, two in front of each member: a bound per member would reach all six.
        let gateways = try (0..<6).map { try FakeGateway(upstream: cluster.endpoints[$0 % 3]) }
        defer { for gateway in gateways { gateway.stop() } }
        let endpoints = gateways.map(\.url)
        let prefix = Fixtures.prefix()
        let keyFile = try Fixtures.keyFile()
        let keyring = try Keyring(
            service: Fixtures.service(),
            store: Fixtures.store(cluster, prefix: prefix, keyFile: keyFile, endpoints: endpoints, timeout: Self.bound))
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
            (
                "opening a store",
                {
                    _ = try Fixtures.store(cluster, prefix: prefix, keyFile: keyFile, endpoints: endpoints, timeout: Self.bound)
                }
            ),
        ]
        for (name, call) in calls {
            let before = Self.requests(gateways)
            let (took, error) = Self.time(call)
            let reached = FakeGateway.settledCount(gateways) - before
            print("everyMemberStopped: \(name) took \(took), reaching \(reached) of \(gateways.count) silent members")
            #expect(Self.isTimedOut(error, bound: Self.bound), "\(name) threw \(String(describing: error))")
            #expect(reached < gateways.count, "\(name) reached every silent member: a bound of its own for each")
        }

        // doctor's check gives each member a share of the one bound, keeping one share for the member
        // list; the read after it finds the time spent. A bound per member would leave the others
        // unasked ("the time ran out before this member was asked"); a bound per request would give
        // the list and the read a round over the members each.
        let asked = Array(gateways.prefix(3))
        let configuration = try EtcdConfiguration(
            endpoints: asked.map(\.url), prefix: prefix, timeout: Self.bound, environment: [:])
        let before = asked.map { $0.requests.count }
        var health: EtcdHealth?
        let took = ContinuousClock().measure { health = EtcdHealth.check(configuration) }
        _ = FakeGateway.settledCount(gateways)
        let received = zip(asked, before).map { Array($0.requests.dropFirst($1)) }
        print("everyMemberStopped: the health check took \(took); the members received \(received.map { $0.map(\.path) })")
        for (n, requests) in received.enumerated() {
            #expect(
                requests.filter { $0.path == "/v3/maintenance/status" }.count == 1, "member \(n + 1) got \(requests.map(\.path))")
        }
        let afterStatus = received.joined().filter { $0.path != "/v3/maintenance/status" }.map(\.path)
        #expect(
            afterStatus.count < asked.count,
            "the list and the read after the status round had bounds of their own: \(afterStatus)")
        #expect(health?.members.count == 3)
        #expect(
            health?.members.allSatisfy { !$0.healthy && !$0.detail.contains("ran out") } == true, "\(String(describing: health))")
        #expect(health?.memberCount == nil)
    }

    @Test("A token renewal spends what is left of the call's bound, not a bound of its own")
    func tokenRenewalWithinTheBound() throws {
        let cluster = try EtcdCluster.start()
        defer { Self.release(cluster) }
        // Member 2's gateway, once told to, refuses every token, as a member does a token it no
        // longer knows, and never answers a login. The member itself, left without a quorum, may
        // answer a login at once ("no leader") or not at all, as the machine's load has it; a
        // silent gateway makes the login wait out its turn whatever the load.
        let refuseTokens = Atomic<Bool>(false)
        let gateways = try (0..<3).map { n in
            try FakeGateway(upstream: cluster.endpoints[n]) { request in
                guard n == 1, refuseTokens.load(ordering: .sequentiallyConsistent) else { return .forward }
                guard request.path != "/v3/auth/authenticate" else { return .silent }
                return .respond(status: 401, body: Data(Self.invalidToken.utf8))
            }
        }
        defer { for gateway in gateways { gateway.stop() } }
        let prefix = Fixtures.prefix()
        let password = "etcd-pw-\(UUID().uuidString.prefix(8))"
        let passwordFile = try EtcdUsers.enableAuthentication(on: cluster, prefix: prefix, password: password)
        let timeout = Duration.seconds(4)
        let store = try EtcdStore(
            configuration: EtcdConfiguration(
                endpoints: gateways.map(\.url), prefix: prefix, timeout: timeout, secret: .keyFile(try Fixtures.keyFile()),
                user: EtcdUsers.user, passwordFile: passwordFile, allowsInsecureAuthentication: true,
                stateFolder: Fixtures.hostState, environment: [:]))
        let keyring = try Keyring(service: Fixtures.service(), store: store)
        let credentials = try Fixtures.credentials("alice")
        // The store now holds a token, and member 1 is the member it asks first.
        try keyring.set(credentials, forKey: "k")

        // Member 1 is silent (half the bound); member 2 refuses the token at once and does not
        // answer the login: the renewal has what is left, less than a turn, and times out there.
        refuseTokens.store(true, ordering: .sequentiallyConsistent)
        try cluster.pause(1)
        try cluster.pause(3)
        let before = gateways.map { $0.requests.count }
        let (took, error) = Self.time { try keyring.set(credentials, forKey: "k") }
        _ = FakeGateway.settledCount(gateways)
        let received = zip(gateways, before).map { Array($0.requests.dropFirst($1)).map(\.path) }
        print("tokenRenewalWithinTheBound: the set took \(took); the members received \(received)")
        #expect(Self.isTimedOut(error, bound: timeout), "the set threw \(String(describing: error))")
        // The renewal did happen: a login was asked for, after member 2 refused the token.
        #expect(received[1].contains("/v3/auth/authenticate"), "no token renewal was tried: \(received)")
        // With what was left (half the bound, member 2's turn), the login asks no other member;
        // a login with a bound of its own would go on to member 3.
        #expect(
            !received[0].contains("/v3/auth/authenticate") && !received[2].contains("/v3/auth/authenticate"),
            "the login had a bound of its own: \(received)")
    }

    /// etcd's answer to a token it does not know (Unauthenticated, 16).
    private static let invalidToken =
        #"{"error":"etcdserver: invalid auth token","code":16,"message":"etcdserver: invalid auth token"}"#

    /// How many requests `gateways` received so far, together.
    private static func requests(_ gateways: [FakeGateway]) -> Int {
        gateways.map { $0.requests.count }.reduce(0, +)
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
