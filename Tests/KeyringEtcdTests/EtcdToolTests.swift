import Foundation
import KeyringEtcd
import KeyringTestSupport
import SwiftKeyring
import Testing

/// The tool on the fleet store, as two hosts would run it: two processes, two HOMEs, one cluster.
@Suite("swift-keyring on etcd")
struct EtcdToolTests {
    @Test("A record set by one host is read by another; a wrong key file is exit 77")
    func twoHostsShare() throws {
        let cluster = try EtcdCluster.shared()
        let prefix = Fixtures.prefix()
        let keyFile = try Fixtures.keyFile()
        let service = Fixtures.service("deploy")
        let hostA = Fixtures.folder.appendingPathComponent("host-a-\(UUID().uuidString.prefix(6))").path
        let hostB = Fixtures.folder.appendingPathComponent("host-b-\(UUID().uuidString.prefix(6))").path
        let a = Fixtures.toolEnvironment(cluster, prefix: prefix, keyFile: keyFile, home: hostA)
        let b = Fixtures.toolEnvironment(cluster, prefix: prefix, keyFile: keyFile, home: hostB)

        let set = try Command.run(
            Command.tool,
            ["set", "--service", service, "registry", "--username", "deployer", "--url", "https://registry.example.com"],
            environment: a, stdin: "fleet-token-123")
        #expect(set.status == 0, "stderr: \(set.stderr)")
        let get = try Command.run(Command.tool, ["get", "--service", service, "registry"], environment: b)
        #expect(get.status == 0, "stderr: \(get.stderr)")
        #expect(get.text == "fleet-token-123\n")
        let list = try Command.run(Command.tool, ["list", "--service", service], environment: b)
        #expect(list.text.contains("registry") && list.text.contains("deployer") && !list.text.contains("fleet-token"))

        var wrong = b
        wrong["SWIFT_KEYRING_KEY_FILE"] = try Fixtures.keyFile().path
        let refused = try Command.run(Command.tool, ["get", "--service", service, "registry"], environment: wrong)
        #expect(refused.status == 77)
        #expect(!refused.text.contains("fleet-token") && !refused.stderr.contains("fleet-token"))

        let removed = try Command.run(Command.tool, ["remove-all", "--service", service, "--yes"], environment: a)
        #expect(removed.status == 0)
        #expect(try Command.run(Command.tool, ["get", "--service", service, "registry"], environment: b).status == 1)
    }

    @Test("migrate moves a host's file records to the fleet and back; --etcd-endpoints wins over the variable")
    func migrate() throws {
        let cluster = try EtcdCluster.shared()
        let prefix = Fixtures.prefix()
        let keyFile = try Fixtures.keyFile()
        let service = Fixtures.service("migrate")
        let home = Fixtures.folder.appendingPathComponent("host-m-\(UUID().uuidString.prefix(6))").path
        var environment = Fixtures.toolEnvironment(cluster, prefix: prefix, keyFile: keyFile, home: home)
        environment["SWIFT_KEYRING_ETCD_ENDPOINTS"] = "http://127.0.0.1:1"  // nothing listens: the option must win
        let endpoints = ["--etcd-endpoints", cluster.endpointList]
        let file = ["--backend", "file", "--file", home + "/keyring.skr"]

        for (key, password) in [("one", "p-one"), ("two", "p-two")] {
            let set = try Command.run(
                Command.tool,
                ["set", key, "--service", service, "--username", "u-\(key)", "--url", "https://example.com"] + file,
                environment: environment, stdin: password)
            #expect(set.status == 0, "stderr: \(set.stderr)")
        }
        let there = try Command.run(
            Command.tool,
            [
                "migrate", "--from", "file", "--to", "etcd", "--remove-source", "--service", service, "--file",
                home + "/keyring.skr",
            ] + endpoints,
            environment: environment)
        #expect(there.status == 0, "stderr: \(there.stderr)")
        #expect(there.text.contains("Copied 2 records"))
        #expect(
            try Command.run(Command.tool, ["get", "one", "--service", service] + endpoints, environment: environment).text
                == "p-one\n")
        #expect(try Command.run(Command.tool, ["get", "one", "--service", service] + file, environment: environment).status == 1)

        let back = try Command.run(
            Command.tool,
            ["migrate", "--from", "etcd", "--to", "file", "--service", service, "--file", home + "/keyring.skr"] + endpoints,
            environment: environment)
        #expect(back.status == 0, "stderr: \(back.stderr)")
        #expect(
            try Command.run(Command.tool, ["get", "two", "--service", service] + file, environment: environment).text == "p-two\n"
        )
        _ = try Command.run(Command.tool, ["remove-all", "--yes", "--service", service] + endpoints, environment: environment)
    }

    @Test("doctor shows each endpoint's health and the member count, with no secret needed")
    func doctor() throws {
        let cluster = try EtcdCluster.shared()
        var environment = Fixtures.toolEnvironment(
            cluster, prefix: Fixtures.prefix(), keyFile: try Fixtures.keyFile(), home: Fixtures.folder.path)
        environment["SWIFT_KEYRING_KEY_FILE"] = nil
        environment["SWIFT_KEYRING_ETCD_ENDPOINTS"] = cluster.endpointList + ",http://127.0.0.1:1"
        let report = try Command.run(Command.tool, ["doctor"], environment: environment)
        #expect(report.status == 0, "stderr: \(report.stderr)")
        for endpoint in cluster.endpoints {
            #expect(report.text.contains("etcd endpoint:    \(endpoint.absoluteString) healthy"))
        }
        #expect(report.text.contains("etcd endpoint:    http://127.0.0.1:1 unhealthy"))
        #expect(report.text.contains("etcd members:     3"))
        #expect(report.text.contains("store:            etcd"))
    }
}
