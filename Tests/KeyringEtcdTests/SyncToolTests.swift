import Foundation
import KeyringEtcd
import KeyringTestSupport
import SwiftKeyring
import Testing

/// The tool with a shared store: two HOMEs, each with an encrypted file of its own, one cluster.
@Suite("swift-keyring sync across hosts")
struct SyncToolTests {
    /// A host's environment: the file store in its HOME, records with the sync flag in etcd.
    private static func host(_ cluster: EtcdCluster, prefix: String, keyFile: URL) throws -> [String: String] {
        let home = try Fixtures.hostFolder().path
        var environment = Fixtures.toolEnvironment(cluster, prefix: prefix, keyFile: keyFile, home: home)
        environment["SWIFT_KEYRING_BACKEND"] = "file"
        environment["SWIFT_KEYRING_FILE"] = home + "/keyring.skr"
        environment["SWIFT_KEYRING_SYNC_STORE"] = "etcd"
        environment["SWIFT_KEYRING_ETCD_STATE_DIR"] = home
        return environment
    }

    @Test("set --sync reaches the other host; list says where each record lives; remove-all --this-machine keeps the shared one")
    func twoHosts() throws {
        let cluster = try EtcdCluster.shared()
        let prefix = Fixtures.prefix()
        let keyFile = try Fixtures.keyFile()
        let service = Fixtures.service("sync-tool")
        let a = try Self.host(cluster, prefix: prefix, keyFile: keyFile)
        let b = try Self.host(cluster, prefix: prefix, keyFile: keyFile)
        func tool(_ arguments: [String], _ environment: [String: String], stdin: String? = nil) throws -> CommandResult {
            try Command.run(Command.tool, arguments + ["--service", service], environment: environment, stdin: stdin)
        }
        defer { _ = try? tool(["remove-all", "--yes"], a) }

        let setSynced = try tool(
            ["set", "fleet", "--username", "deployer", "--url", "https://registry.example.com", "--sync"], a, stdin: "fleet-pw")
        #expect(setSynced.status == 0, "stderr: \(setSynced.stderr)")
        let setLocal = try tool(["set", "desk", "--username", "me", "--url", "https://desk.example.com"], a, stdin: "desk-pw")
        #expect(setLocal.status == 0, "stderr: \(setLocal.stderr)")

        #expect(try tool(["get", "fleet"], b).text == "fleet-pw\n")
        #expect(try tool(["get", "desk"], b).status == 1)
        // The existing four fields stay as they were; --show-place adds the fifth.
        #expect(try tool(["list"], b).text == "fleet\tdeployer\thttps://registry.example.com\tsync\n")
        #expect(
            try tool(["list", "--show-place"], a).text == """
                desk\tme\thttps://desk.example.com\t-\tlocal
                fleet\tdeployer\thttps://registry.example.com\tsync\tshared

                """)
        let json = try tool(["list", "--json"], a)
        let records = try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]] ?? []
        #expect(records.map { $0["place"] as? String } == ["local", "shared"])
        #expect(try tool(["list", "--place", "local"], a).text.hasPrefix("desk\t"))

        let doctor = try tool(["doctor"], a)
        #expect(doctor.text.contains("sync:             on"), "\(doctor.text)")
        #expect(doctor.text.contains("local store:      file up\nshared store:     etcd up\n"), "\(doctor.text)")
        #expect(doctor.text.contains("etcd reads:       served"), "\(doctor.text)")
        var alone = a
        alone["SWIFT_KEYRING_SYNC_STORE"] = nil
        #expect(try tool(["doctor"], alone).text.contains("sync:             off (no shared store is set"))

        let thisHost = try tool(["remove-all", "--this-machine", "--yes"], a)
        #expect(thisHost.text == "Removed 1 record of \(service) on this machine.\n", "stderr: \(thisHost.stderr)")
        #expect(try tool(["get", "fleet"], b).status == 0)
        #expect(try tool(["remove-all", "--yes"], a).status == 0)
        #expect(try tool(["get", "fleet"], b).status == 1)
        for output in [setSynced, setLocal, json, doctor] {
            #expect(!output.text.contains("-pw") && !output.stderr.contains("-pw"))
        }
    }

    @Test("sync push moves records stored with the flag before sharing was set; without a shared store it is a usage error")
    func push() throws {
        let cluster = try EtcdCluster.shared()
        let prefix = Fixtures.prefix()
        let keyFile = try Fixtures.keyFile()
        let service = Fixtures.service("sync-push")
        let a = try Self.host(cluster, prefix: prefix, keyFile: keyFile)
        let b = try Self.host(cluster, prefix: prefix, keyFile: keyFile)
        var alone = a
        alone["SWIFT_KEYRING_SYNC_STORE"] = "none"
        func tool(_ arguments: [String], _ environment: [String: String], stdin: String? = nil) throws -> CommandResult {
            try Command.run(Command.tool, arguments + ["--service", service], environment: environment, stdin: stdin)
        }
        defer { _ = try? tool(["remove-all", "--yes"], a) }
        let set = try tool(["set", "early", "--username", "u", "--url", "https://example.com", "--sync"], alone, stdin: "pw")
        #expect(set.status == 0, "stderr: \(set.stderr)")
        #expect(try tool(["get", "early"], b).status == 1)
        #expect(try tool(["sync", "push"], alone).status == 64)
        // etcd cannot be both the local store and the shared one; an unknown word is refused.
        let both = try tool(["list", "--backend", "etcd"], a)
        #expect(both.status == 64)
        #expect(both.stderr.contains("needs a local store"), "\(both.stderr)")
        #expect(try tool(["list", "--sync-store", "vault"], a).status == 64)

        let push = try tool(["sync", "push"], a)
        #expect(push.status == 0, "stderr: \(push.stderr)")
        #expect(push.text.hasPrefix("Moved 1 record of \(service) to etcd"), "\(push.text)")
        #expect(try tool(["get", "early"], b).text == "pw\n")
        #expect(try tool(["list", "--show-place"], a).text.hasSuffix("\tshared\n"))
    }
}
