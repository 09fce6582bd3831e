import Foundation
import KeyringTestSupport
import Testing

/// `--sync` where a fleet shares registry logins: two hosts, each with an encrypted file of its
/// own, one etcd cluster (Scripts/with-etcd.sh; fails, never skips, without it).
@Suite("docker credential helper across hosts")
struct DockerHelperSyncTests {
    @Test("A login stored with --sync is answered on another host; one stored without it stays on its host")
    func syncAcrossHosts() throws {
        let cluster = try EtcdCluster.shared()
        let a = try Sandbox()
        let b = try Sandbox()
        let prefix = "docker-\(UUID().uuidString.prefix(8).lowercased())/"
        // The fleet's hosts share the key that seals the shared records (here the one file's).
        func host(_ sandbox: Sandbox) throws -> [String: String] {
            // Where the host remembers which keys have a shared copy: a folder only its user may enter.
            let state = sandbox.folder.appendingPathComponent("etcd-state")
            try FileManager.default.createDirectory(
                at: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return sandbox.fileEnvironment([
                "SWIFT_KEYRING_KEY_FILE": a.keyFile.path, "SWIFT_KEYRING_SYNC_STORE": "etcd",
                "SWIFT_KEYRING_ETCD_ENDPOINTS": cluster.endpointList, "SWIFT_KEYRING_ETCD_PREFIX": prefix,
                "SWIFT_KEYRING_ETCD_STATE_DIR": state.path,
            ])
        }
        let plainA = DockerHelperClient(environment: try host(a))
        var syncA = plainA
        syncA.options = ["--sync"]
        let hostB = DockerHelperClient(environment: try host(b))
        let fleet = DockerHelperClient.uniqueServer()
        let desk = DockerHelperClient.uniqueServer()
        defer { for server in [fleet, desk] { _ = try? plainA.run("erase", input: server) } }

        let shared = try syncA.store(fleet, "deployer", "fleet-pw")
        #expect(shared.status == 0, "\(shared.text)")
        #expect(try plainA.store(desk, "me", "desk-pw").status == 0)
        #expect(try hostB.get(fleet) == DockerHelperClient.Login("deployer", "fleet-pw"))
        #expect(try hostB.get(desk) == nil, "a login stored without --sync left its host")
        #expect(try hostB.list() == [fleet: "deployer"])
        #expect(try plainA.list() == [fleet: "deployer", desk: "me"])
        // Erased on one host, gone for the fleet.
        #expect(try hostB.run("erase", input: fleet).status == 0)
        #expect(try plainA.get(fleet) == nil)
    }
}
