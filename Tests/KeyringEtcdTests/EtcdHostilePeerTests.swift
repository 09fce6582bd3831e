import Foundation
import KeyringCrypto
import KeyringTestSupport
import SwiftKeyring
import Synchronization
import Testing

@testable import KeyringEtcd

/// A cluster that misbehaves, through the fake gateway in front of the shared cluster (issue 26,
/// points 9-14): each test asserts what a user would notice, the error and what it names, the
/// password that must not show, and what is left stored.
@Suite("etcd answers are bounded and remembered")
struct EtcdHostilePeerTests {
    // MARK: 9. Response size

    @Test(
        "An answer past the cap ends at the cap, not at the time bound, with an error naming the member and the cap",
        arguments: [FakeGateway.Reply.hugeBody(bytes: 1 << 30), .endlessChunked])
    func answerSizeIsCapped(reply: FakeGateway.Reply) throws {
        let cluster = try EtcdCluster.shared()
        let gateway = try FakeGateway(upstream: cluster.endpoints[0]) { $0.path == "/v3/kv/range" ? reply : .forward }
        defer { gateway.stop() }
        let bound = Duration.seconds(60)
        var thrown: (any Error)?
        let took = ContinuousClock().measure {
            do {
                _ = try Fixtures.store(
                    cluster, prefix: Fixtures.prefix(), keyFile: try Fixtures.keyFile(), endpoints: [gateway.url], timeout: bound)
            } catch { thrown = error }
        }
        guard let error = thrown as? KeyringError, error.code == .backend, let domain = error.backendDomain,
            let message = error.backendMessage
        else {
            Issue.record("expected the cap's error, got \(String(describing: thrown))")
            return
        }
        #expect(domain == "etcd")
        #expect(message.contains("127.0.0.1:\(gateway.url.port!)") && message.contains("more than 24 MiB"), "\(message)")
        // The client left at its cap: the gateway got rid of 24 MiB and what the kernel's buffers
        // hold on both sides, not the 1 GiB announced, nor a minute of an endless body.
        let sent = gateway.bodyBytesSent
        print("answerSizeIsCapped: the store gave up after \(took), having let \(sent >> 20) MiB be sent")
        #expect(sent < 128 << 20, "the gateway sent \(sent >> 20) MiB before the store left")
    }

    @Test("A listing larger than the cap comes in smaller pages: twenty 1 MiB secrets list in full")
    func largeListingsArePaged() throws {
        let cluster = try EtcdCluster.shared()
        let store = try Fixtures.store(cluster, prefix: Fixtures.prefix(), keyFile: try Fixtures.keyFile(), timeout: .seconds(30))
        let service = Fixtures.service("pages")
        let keyring = try Keyring(service: service, store: store)
        defer { _ = try? store.removeAll(service: service, kind: nil) }
        // 20 × 1 MiB is 26.7 MiB of base64 in one answer: past the cap, so the first pages are asked again smaller.
        let secret = Data(repeating: 0x5A, count: 1 << 20)
        for n in 0..<20 { try keyring.setSecret(secret, forKey: "big-\(n)") }
        let listed = try store.summaries(service: service, kind: .secret)
        #expect(listed.count == 20)
        #expect(Set(listed.map(\.id.key)) == Set((0..<20).map { "big-\($0)" }))
        #expect(try store.removeAll(service: service, kind: nil) == 20)
    }

    // MARK: 10. Rollback

    @Test("An older sealed value handed back after a rotation is refused; nothing stored changes; another host reads the new one")
    func olderValueIsRefused() throws {
        let cluster = try EtcdCluster.shared()
        let prefix = Fixtures.prefix()
        let keyFile = try Fixtures.keyFile()
        let replay = Mutex<(key: String, value: String)?>(nil)
        let gateway = try FakeGateway(upstream: cluster.endpoints[0]) { request in
            guard request.path == "/v3/kv/range", let old = replay.withLock({ $0 }) else { return .forward }
            return .rewrite { status, body in (status, Self.replacing(body, key: old.key, with: old.value)) }
        }
        defer { gateway.stop() }
        let host = try Fixtures.hostFolder()
        let service = Fixtures.service("rollback")
        let keyring = try Keyring(
            service: service,
            store: Fixtures.store(cluster, prefix: prefix, keyFile: keyFile, endpoints: [gateway.url], stateFolder: host))
        try keyring.set(try Fixtures.credentials("deployer", password: "old-password-1"), forKey: "registry")
        let old = try #require(try Gateway.pairs(cluster.endpoints[0], prefix: prefix + "r/").first)
        try keyring.set(try Fixtures.credentials("deployer", password: "new-password-2"), forKey: "registry")
        #expect(try keyring.password(forKey: "registry") == "new-password-2")

        replay.withLock { $0 = old }
        for (name, call) in [
            ("get", { _ = try keyring.password(forKey: "registry") }), ("list", { _ = try keyring.list() }),
        ] as [(String, () throws -> Void)] {
            #expect("\(name) is refused") {
                try call()
            } throws: {
                guard let error = $0 as? KeyringError, error.code == .damaged, let reason = error.reason else { return false }
                return reason.contains("of the record \(service)/registry") && reason.contains("older than version")
                    && !"\($0)".contains("password-") && error.place == .etcd
                    && error.description.hasPrefix("The etcd record is damaged: ")
            }
        }
        // The tool on this host says the same (exit 74) and prints no password.
        var environment = Fixtures.toolEnvironment(cluster, prefix: prefix, keyFile: keyFile, home: Fixtures.folder.path)
        environment["SWIFT_KEYRING_ETCD_ENDPOINTS"] = gateway.url.absoluteString
        environment["SWIFT_KEYRING_ETCD_STATE_DIR"] = host.path
        let get = try Command.run(Command.tool, ["get", "--service", service, "registry"], environment: environment)
        #expect(get.status == 74)
        #expect(get.text.isEmpty && get.stderr.contains("older than version") && !get.stderr.contains("password-"))
        #expect(get.stderr.hasPrefix("swift-keyring: The etcd record is damaged: "), "\(get.stderr)")

        // Nothing stored changed: a host asking etcd itself reads the new password.
        let direct = try Keyring(
            service: service,
            store: Fixtures.store(cluster, prefix: prefix, keyFile: keyFile, stateFolder: try Fixtures.hostFolder()))
        #expect(try direct.password(forKey: "registry") == "new-password-2")
        // What remains possible (the Fleets article of KeyringEtcd): a host that never saw the new value cannot tell.
        let newcomer = try Keyring(
            service: service,
            store: Fixtures.store(
                cluster, prefix: prefix, keyFile: keyFile, endpoints: [gateway.url], stateFolder: try Fixtures.hostFolder()))
        #expect(try newcomer.password(forKey: "registry") == "old-password-1")
        _ = try direct.removeAll()
    }

    @Test("A record this host removed that comes back is refused; set anew, it reads again")
    func removedRecordComingBackIsRefused() throws {
        let cluster = try EtcdCluster.shared()
        let prefix = Fixtures.prefix()
        let keyFile = try Fixtures.keyFile()
        let service = Fixtures.service("removed")
        let keyring = try Keyring(
            service: service,
            store: Fixtures.store(cluster, prefix: prefix, keyFile: keyFile, stateFolder: try Fixtures.hostFolder()))
        try keyring.set(try Fixtures.credentials("deployer", password: "removed-password"), forKey: "registry")
        let old = try #require(try Gateway.pairs(cluster.endpoints[0], prefix: prefix + "r/").first)
        #expect(try keyring.remove(forKey: "registry"))
        // The cluster puts the removed value back, as a restored snapshot would.
        _ = try Gateway.post(cluster.endpoints[0], "v3/kv/put", ["key": old.key, "value": old.value])

        #expect {
            _ = try keyring.password(forKey: "registry")
        } throws: {
            guard let error = $0 as? KeyringError, error.code == .damaged, let reason = error.reason else { return false }
            return reason.contains("saw the record removed") && !"\($0)".contains("removed-password")
        }
        #expect(throws: KeyringError.self) { _ = try keyring.list() }

        try keyring.set(try Fixtures.credentials("deployer", password: "set-again"), forKey: "registry")
        #expect(try keyring.password(forKey: "registry") == "set-again")
        #expect(try keyring.list().map(\.key) == ["registry"])
        _ = try keyring.removeAll()
    }

    @Test("A value written before versions still reads; once a versioned one was seen, the old one is refused")
    func unversionedValuesStillRead() throws {
        let cluster = try EtcdCluster.shared()
        let prefix = Fixtures.prefix()
        let keyFile = try Fixtures.keyFile()
        let store = try Fixtures.store(cluster, prefix: prefix, keyFile: keyFile, stateFolder: try Fixtures.hostFolder())
        let service = Fixtures.service("legacy")
        let keyring = try Keyring(service: service, store: store)
        // Sealed as the store did before versions: the header and the key as associated data, nothing before it.
        let id = RecordID(service: service, key: "registry", kind: .credentials)
        let headerKey = Data("\(prefix)keyring".utf8).base64EncodedString()
        let header = try #require(
            (try Gateway.post(cluster.endpoints[0], "v3/kv/range", ["key": headerKey])["kvs"] as? [[String: Any]])?.first?[
                "value"] as? String)
        let headerBytes = [UInt8](Data(base64Encoded: header)!)
        let keys = try SealingKeys(
            master: try SecretMaterial(.keyFile(keyFile)).masterKey(for: try KeyedHeader.decode(headerBytes)),
            salt: try KeyedHeader.decode(headerBytes).salt)
        let key = try EtcdKeyspace(prefix: prefix, namesKey: try keys.derive(info: EtcdKeyspace.namesLabel)).recordKey(id)
        let legacy = try RecordSealing.seal(
            StoredRecord(
                id: id, metadata: RecordMetadata(username: "deployer", url: Fixtures.url.absoluteString),
                secret: Array("legacy-password".utf8)),
            keys: keys, header: headerBytes + key.bytes
        ).encoded
        let put = ["key": Data(key.bytes).base64EncodedString(), "value": Data(legacy).base64EncodedString()]
        _ = try Gateway.post(cluster.endpoints[0], "v3/kv/put", put)
        #expect(try keyring.password(forKey: "registry") == "legacy-password")
        #expect(try keyring.list().map(\.key) == ["registry"])

        try keyring.set(try Fixtures.credentials("deployer", password: "versioned-password"), forKey: "registry")
        #expect(try keyring.password(forKey: "registry") == "versioned-password")
        _ = try Gateway.post(cluster.endpoints[0], "v3/kv/put", put)
        #expect {
            _ = try keyring.password(forKey: "registry")
        } throws: {
            guard let error = $0 as? KeyringError, error.code == .damaged, let reason = error.reason else { return false }
            return reason.contains("version 0 of") && !"\($0)".contains("-password")
        }
        _ = try keyring.removeAll()
    }

    @Test("A version the cluster forged (the largest there is) does not steer the next write, which still reads")
    func forgedVersionIsIgnored() throws {
        let cluster = try EtcdCluster.shared()
        let prefix = Fixtures.prefix()
        let keyring = try Keyring(
            service: Fixtures.service("forged"),
            store: Fixtures.store(
                cluster, prefix: prefix, keyFile: try Fixtures.keyFile(), stateFolder: try Fixtures.hostFolder()))
        try keyring.set(try Fixtures.credentials("deployer", password: "first"), forKey: "registry")
        let stored = try #require(try Gateway.pairs(cluster.endpoints[0], prefix: prefix + "r/").first)
        var forged = [UInt8](Data(base64Encoded: stored.value)!)
        forged.replaceSubrange(1..<9, with: repeatElement(0xFF, count: 8))
        _ = try Gateway.post(
            cluster.endpoints[0], "v3/kv/put", ["key": stored.key, "value": Data(forged).base64EncodedString()])
        #expect(throws: KeyringError.self) { _ = try keyring.password(forKey: "registry") }
        try keyring.set(try Fixtures.credentials("deployer", password: "second"), forKey: "registry")
        #expect(try keyring.password(forKey: "registry") == "second")
        _ = try keyring.removeAll()
    }

    // MARK: 11. Credentials in clear

    @Test("etcd's user over http:// is refused before anything is sent, unless allowed; mixed schemes always")
    func authenticationOverHTTPIsRefused() throws {
        let cluster = try EtcdCluster.shared()
        let gateway = try FakeGateway(upstream: cluster.endpoints[0])
        defer { gateway.stop() }
        let password = "etcd-password-\(UUID().uuidString.prefix(6))"
        let passwordFile = Fixtures.folder.appendingPathComponent("etcd-pw-\(UUID().uuidString.prefix(6))")
        _ = FileManager.default.createFile(
            atPath: passwordFile.path, contents: Data(password.utf8), attributes: [.posixPermissions: 0o600])
        let environment = [
            "SWIFT_KEYRING_ETCD_ENDPOINTS": gateway.url.absoluteString, "SWIFT_KEYRING_ETCD_USER": "fleet",
            "SWIFT_KEYRING_ETCD_PASSWORD_FILE": passwordFile.path, "SWIFT_KEYRING_KEY_FILE": try Fixtures.keyFile().path,
        ]
        #expect {
            _ = try EtcdStore(configuration: EtcdConfiguration(environment: environment))
        } throws: {
            guard let error = $0 as? KeyringError, error.code == .invalidConfiguration, let setting = error.setting,
                let reason = error.reason
            else { return false }
            return setting == "SWIFT_KEYRING_ETCD_ENDPOINTS" && reason.contains("SWIFT_KEYRING_ETCD_ALLOW_INSECURE_AUTH=1")
                && reason.contains("unencrypted") && !"\($0)".contains(password)
        }
        #expect(gateway.requests.isEmpty, "the password left the host")

        var allowed = environment
        allowed["SWIFT_KEYRING_ETCD_ALLOW_INSECURE_AUTH"] = "1"
        #expect(try EtcdConfiguration(environment: allowed).allowsInsecureAuthentication)
        allowed["SWIFT_KEYRING_ETCD_ALLOW_INSECURE_AUTH"] = "maybe"
        #expect {
            _ = try EtcdConfiguration(environment: allowed)
        } throws: {
            guard let error = $0 as? KeyringError, error.code == .invalidConfiguration, let setting = error.setting else {
                return false
            }
            return setting == "SWIFT_KEYRING_ETCD_ALLOW_INSECURE_AUTH"
        }
        var mixed = environment
        mixed["SWIFT_KEYRING_ETCD_ENDPOINTS"] = "https://127.0.0.1:1,\(gateway.url.absoluteString)"
        mixed["SWIFT_KEYRING_ETCD_ALLOW_INSECURE_AUTH"] = "1"
        #expect {
            _ = try EtcdConfiguration(environment: mixed)
        } throws: {
            guard let error = $0 as? KeyringError, error.code == .invalidConfiguration, let setting = error.setting,
                let reason = error.reason
            else { return false }
            return setting == "SWIFT_KEYRING_ETCD_ENDPOINTS" && reason.contains("mixes http:// and https://")
        }
        #expect(gateway.requests.isEmpty)
    }

    @Test("http_proxy and all_proxy are ignored, and doctor says so; SWIFT_KEYRING_ETCD_PROXY is used")
    func environmentProxyIsIgnored() throws {
        let cluster = try EtcdCluster.shared()
        let proxy = try FakeGateway(upstream: cluster.endpoints[0])
        defer { proxy.stop() }
        let service = Fixtures.service("proxy")
        var environment = Fixtures.toolEnvironment(
            cluster, prefix: Fixtures.prefix(), keyFile: try Fixtures.keyFile(), home: try Fixtures.hostFolder().path)
        for variable in ["http_proxy", "HTTP_PROXY", "https_proxy", "all_proxy", "ALL_PROXY"] {
            environment[variable] = proxy.url.absoluteString
        }
        let set = try Command.run(
            Command.tool, ["set", "--service", service, "registry", "--username", "deployer", "--url", "https://example.com"],
            environment: environment, stdin: "proxied-password")
        #expect(set.status == 0, "stderr: \(set.stderr)")
        #expect(try Command.run(Command.tool, ["get", "--service", service, "registry"], environment: environment).status == 0)
        #expect(proxy.requests.isEmpty, "a request went through the environment's proxy")
        let doctor = try Command.run(Command.tool, ["doctor"], environment: environment)
        #expect(doctor.text.contains("etcd proxy:       none (http_proxy, https_proxy, all_proxy, ALL_PROXY in the environment"))

        environment["SWIFT_KEYRING_ETCD_PROXY"] = proxy.url.absoluteString
        let get = try Command.run(Command.tool, ["get", "--service", service, "registry"], environment: environment)
        #expect(get.text == "proxied-password\n", "stderr: \(get.stderr)")
        #expect(proxy.requests.contains { $0.target.hasPrefix(cluster.endpoints[0].absoluteString) })
        #expect(try Command.run(Command.tool, ["doctor"], environment: environment).text.contains("etcd proxy:       through"))
        _ = try Command.run(Command.tool, ["remove-all", "--yes", "--service", service], environment: environment)
    }

    // MARK: 12. Header injection

    @Test(
        "A token that cannot go in a header is refused before any request carries it",
        arguments: ["abc\r\nX-Injected: yes", "abc\nX-Injected: yes", String(repeating: "t", count: 5000), "two words"])
    func badTokenIsRefused(token: String) throws {
        let cluster = try EtcdCluster.shared()
        let gateway = try FakeGateway(upstream: cluster.endpoints[0]) { request in
            request.path == "/v3/auth/authenticate" ? .respond(status: 200, body: FakeGateway.body(["token": token])) : .forward
        }
        defer { gateway.stop() }
        let passwordFile = Fixtures.folder.appendingPathComponent("etcd-pw-\(UUID().uuidString.prefix(6))")
        _ = FileManager.default.createFile(
            atPath: passwordFile.path, contents: Data("etcd-secret".utf8), attributes: [.posixPermissions: 0o600])
        #expect {
            _ = try EtcdStore(
                configuration: EtcdConfiguration(
                    endpoints: [gateway.url], prefix: Fixtures.prefix(), secret: .keyFile(try Fixtures.keyFile()),
                    user: "fleet", passwordFile: passwordFile, allowsInsecureAuthentication: true,
                    stateFolder: try Fixtures.hostFolder(), environment: [:]))
        } throws: {
            guard let error = $0 as? KeyringError, error.code == .backend, let domain = error.backendDomain,
                let message = error.backendMessage
            else { return false }
            return domain == "etcd" && message.contains("token that cannot be sent in a header")
                && !message.contains("X-Injected") && !message.contains("ttttt") && !message.contains("etcd-secret")
        }
        #expect(gateway.requests.map(\.path) == ["/v3/auth/authenticate"])
        #expect(!gateway.requests.contains { $0.headerLines.contains { $0.lowercased().hasPrefix("x-injected") } })
    }

    // MARK: 13. Prefixes

    @Test("A keyring whose prefix lies inside another's service range survives that service's remove-all, and is not counted")
    func nestedPrefixIsNotWiped() throws {
        let cluster = try EtcdCluster.shared()
        let prefixA = Fixtures.prefix()
        let keyFile = try Fixtures.keyFile()
        let serviceA = Fixtures.service("outer")
        let a = try Keyring(service: serviceA, store: Fixtures.store(cluster, prefix: prefixA, keyFile: keyFile))
        try a.set(try Fixtures.credentials("alice", password: "a-one"), forKey: "one")
        try a.set(try Fixtures.credentials("alice", password: "a-two"), forKey: "two")
        // B's prefix is A's service range, as in the issue: <A's prefix>r/<A's service hash>/.
        let key = try #require(try Gateway.pairs(cluster.endpoints[0], prefix: prefixA + "r/").first?.key)
        let path = String(decoding: Data(base64Encoded: key)!, as: UTF8.self)
        let prefixB = prefixA + "r/" + path.dropFirst(prefixA.count + 2).prefix(65)
        #expect(prefixB.hasSuffix("/") && prefixB.count == prefixA.count + 67)
        let serviceB = Fixtures.service("inner")
        let keyFileB = try Fixtures.keyFile()
        let b = try Keyring(service: serviceB, store: Fixtures.store(cluster, prefix: prefixB, keyFile: keyFileB))
        try b.set(try Fixtures.credentials("bob", password: "b-one"), forKey: "one")
        try b.setSecret(Data("b-secret".utf8), forKey: "token")

        #expect(try a.list().map(\.key).sorted() == ["one", "two"])
        #expect(try a.removeAll() == 2)
        #expect(try a.list().isEmpty)
        // B is whole: its header (it opens again) and its records.
        _ = try Fixtures.store(cluster, prefix: prefixB, keyFile: keyFileB)
        #expect(try b.password(forKey: "one") == "b-one")
        #expect(try b.secret(forKey: "token") == Data("b-secret".utf8))
        #expect(try Gateway.pairs(cluster.endpoints[0], prefix: prefixB).count == 3)
        _ = try b.removeAll()
        _ = try b.removeSecret(forKey: "token")
    }

    // MARK: 14. Planted key-derivation cost

    @Test("A header planted with the largest Argon2id cost is refused at once, by a host that knew the old one and by a new host")
    func plantedCostIsRefused() throws {
        let cluster = try EtcdCluster.shared()
        let prefix = Fixtures.prefix()
        let cheap = Argon2idParameters(iterations: 1, memoryKiB: 64, parallelism: 1)
        func open(_ host: URL) throws -> EtcdStore {
            try EtcdStore(
                configuration: EtcdConfiguration(
                    endpoints: cluster.endpoints, prefix: prefix, secret: .passphrase("fleet passphrase"), keyDerivation: cheap,
                    stateFolder: host, environment: [:]))
        }
        let known = try Fixtures.hostFolder()
        let keyring = try Keyring(service: Fixtures.service("cost"), store: open(known))
        try keyring.set(try Fixtures.credentials("alice"), forKey: "k")

        let headerKey = Data("\(prefix)keyring".utf8).base64EncodedString()
        let header = try #require(
            (try Gateway.post(cluster.endpoints[0], "v3/kv/range", ["key": headerKey])["kvs"] as? [[String: Any]])?.first?[
                "value"] as? String)
        let planted = try HeaderPatch.parameters(
            Data(base64Encoded: header)!, iterations: 10, memoryKiB: 1 << 20, parallelism: 4)
        _ = try Gateway.post(cluster.endpoints[0], "v3/kv/put", ["key": headerKey, "value": planted.base64EncodedString()])

        for (host, words) in [(known, "not the one this host first opened"), (try Fixtures.hostFolder(), "at most")] {
            var thrown: (any Error)?
            // The CPU time of this thread, not the wall time: a load on the machine does not change it.
            let before = Self.threadCPUTime()
            let took = ContinuousClock().measure {
                do { _ = try open(host) } catch { thrown = error }
            }
            let cpu = Self.threadCPUTime() - before
            print("EtcdHostilePeerTests: refusing the planted header took \(took), \(cpu) of this thread's CPU")
            guard let error = thrown as? KeyringError, error.code == .damaged, let reason = error.reason else {
                Issue.record("expected .damaged, got \(String(describing: thrown))")
                continue
            }
            #expect(reason.contains(words) && reason.contains("argon2id t=10 m=1048576 KiB p=4"), "\(reason)")
            #expect(reason.contains("nothing was derived"))
            // Deriving at that cost takes 15.7 s of CPU and 1.07 GB here; refusing takes a round trip,
            // a few milliseconds. (The call runs on this thread; libgcrypt's Argon2id derives on the caller's.)
            #expect(cpu < .seconds(5), "the refusal used \(cpu) of CPU: was the key derived?")
        }

        // A header that vanished is not made anew behind the back of a host that knew it.
        _ = try Gateway.post(cluster.endpoints[0], "v3/kv/deleterange", ["key": headerKey])
        #expect {
            _ = try open(known)
        } throws: {
            guard let error = $0 as? KeyringError, error.code == .damaged, let reason = error.reason else { return false }
            return reason.contains("is gone from etcd")
        }
        #expect(try Gateway.post(cluster.endpoints[0], "v3/kv/range", ["key": headerKey])["kvs"] == nil)

        #expect {
            _ = try EtcdConfiguration(
                endpoints: cluster.endpoints,
                keyDerivation: Argon2idParameters(iterations: 10, memoryKiB: 1 << 20, parallelism: 4),
                environment: [:])
        } throws: {
            guard let error = $0 as? KeyringError, error.code == .invalidConfiguration, let setting = error.setting else {
                return false
            }
            return setting == "keyDerivation"
        }
    }

    /// `body` (a range answer) with the value under `key` (base64) replaced by `value` (base64).
    private static func replacing(_ body: Data, key: String, with value: String) -> Data {
        var object = FakeGateway.object(body)
        guard var pairs = object["kvs"] as? [[String: Any]] else { return body }
        for index in pairs.indices where pairs[index]["key"] as? String == key {
            pairs[index]["value"] = value
        }
        object["kvs"] = pairs
        return FakeGateway.body(object)
    }

    /// The CPU time the calling thread has used (CLOCK_THREAD_CPUTIME_ID).
    private static func threadCPUTime() -> Duration {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return .zero }
        return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
    }
}
