import Foundation
import KeyringEtcd
import KeyringTestSupport
import SwiftKeyring
import Testing

/// Issue 37: the tool on a two-store keyring whose cluster lost its quorum, each call a fresh
/// process (as a laptop off the fleet's network runs it): device-only calls never wait for the
/// fleet, synced ones fail as unavailable and write nothing here.
@Suite("swift-keyring sync without quorum")
struct SyncQuorumToolTests {
    @Test(
        "Fresh processes without quorum: device-only get and set answer; synced calls exit 69 writing nothing; list is partial; doctor names the half that is down"
    )
    func quorumLost() throws {
        let cluster = try EtcdCluster.start()
        defer { cluster.stop() }
        let prefix = Fixtures.prefix()
        let keyFile = try Fixtures.keyFile()
        let service = Fixtures.service("sync-quorum")
        let home = try Fixtures.hostFolder().path
        var environment = Fixtures.toolEnvironment(cluster, prefix: prefix, keyFile: keyFile, home: home)
        environment["SWIFT_KEYRING_BACKEND"] = "file"
        environment["SWIFT_KEYRING_FILE"] = home + "/keyring.skr"
        environment["SWIFT_KEYRING_SYNC_STORE"] = "etcd"
        environment["SWIFT_KEYRING_ETCD_STATE_DIR"] = home
        // Hang bounds only: what decides is what each call sends the cluster.
        func tool(_ arguments: [String], stdin: String? = nil) throws -> CommandResult {
            try Command.run(
                Command.tool, arguments + ["--service", service], environment: environment, stdin: stdin, timeout: 60)
        }
        func set(_ key: String, _ password: String, sync: Bool) throws -> CommandResult {
            try tool(
                ["set", key, "--username", "u", "--url", "https://\(key).example.com"] + (sync ? ["--sync"] : []), stdin: password
            )
        }
        for (key, sync) in [("laptop", false), ("fleet", true), ("moved", true)] {
            let stored = try set(key, "\(key)-pw", sync: sync)
            #expect(stored.status == 0, "set \(key): \(stored.stderr)")
        }
        // `moved` was synced, then set device-only: it lives here now, and no mark of it is left.
        #expect(try set("moved", "moved-pw-2", sync: false).status == 0)
        // The git helper opens the keyring as the tool does; what it stores is device-only.
        let helper = URL(fileURLWithPath: Command.tool).deletingLastPathComponent()
            .appendingPathComponent("git-credential-swift-keyring").path
        func git(_ action: String, _ input: String) throws -> CommandResult {
            try Command.run(helper, [action], environment: environment, stdin: input, timeout: 30)
        }
        let stored = try git("store", "protocol=https\nhost=git.example.com\nusername=dev\npassword=git-pw\n\n")
        #expect(stored.status == 0, "git store: \(stored.stderr)")

        let survivor = try cluster.leader()
        for member in (1...3) where member != survivor { try cluster.kill(member) }
        // The survivor, alone, answers no read. A gateway in front of it logs whatever each call
        // sends the cluster: a call that waited for the fleet would have to ask it something first.
        let gateway = try FakeGateway(upstream: cluster.endpoints[survivor - 1])
        defer { gateway.stop() }
        environment["SWIFT_KEYRING_ETCD_ENDPOINTS"] = cluster.endpoints.enumerated()
            .map { $0.offset == survivor - 1 ? gateway.url.absoluteString : $0.element.absoluteString }
            .joined(separator: ",")
        var logged = 0
        /// What the last call sent the cluster, once the gateway has logged it all.
        func sent(by call: String, took: Duration) -> [String] {
            _ = FakeGateway.settledCount([gateway])
            let paths = gateway.requests.dropFirst(logged).map(\.path)
            logged += paths.count
            print("quorumLost: \(call) took \(took), sending the cluster \(paths)")
            return paths
        }
        /// Runs a device-only call, which must ask the cluster nothing; the time is printed, not judged.
        func deviceOnly(_ name: String, _ run: () throws -> CommandResult) rethrows -> CommandResult {
            let started = ContinuousClock.now
            let result = try run()
            let paths = sent(by: name, took: ContinuousClock.now - started)
            #expect(paths.isEmpty, "\(name) asked the cluster \(paths): a device-only call waited for the fleet")
            return result
        }

        // Device-only calls, each in a new process: they answer, and never ask the cluster.
        let get = try deviceOnly("get laptop") { try tool(["get", "laptop"]) }
        #expect(get.status == 0, "get laptop: \(get.stderr)")
        #expect(get.text == "laptop-pw\n", "get laptop printed another password")
        let newLocal = try deviceOnly("set newlocal") { try set("newlocal", "newlocal-pw", sync: false) }
        #expect(newLocal.status == 0, "set newlocal: \(newLocal.stderr)")
        let getNewLocal = try deviceOnly("get newlocal") { try tool(["get", "newlocal"]) }
        #expect(getNewLocal.text == "newlocal-pw\n", "get newlocal printed another password")
        let getMoved = try deviceOnly("get moved") { try tool(["get", "moved"]) }
        #expect(getMoved.text == "moved-pw-2\n", "get moved printed another password")
        #expect(try deviceOnly("set moved") { try set("moved", "moved-pw-3", sync: false) }.status == 0)
        #expect(try deviceOnly("remove newlocal") { try tool(["remove", "newlocal"]) }.status == 0)
        // git's get names no username: the helper lists the candidates, in both stores, so it
        // asks the cluster once for the names, and answers from this machine's record.
        let gitStarted = ContinuousClock.now
        let gitGet = try git("get", "protocol=https\nhost=git.example.com\n\n")
        let gitSent = sent(by: "git get", took: ContinuousClock.now - gitStarted)
        #expect(gitSent.count <= 1, "git get asked the cluster \(gitSent)")
        #expect(gitGet.status == 0, "git get: \(gitGet.stderr)")
        #expect(gitGet.text.contains("password=git-pw\n"), "git get answered another password")

        // Synced calls: unavailable (69) within the bound, nothing written here.
        let synced = try tool(["get", "fleet"])
        #expect(synced.status == 69, "get fleet: \(synced.stderr)")
        let late = try set("late", "late-pw", sync: true)
        #expect(late.status == 69, "set late: \(late.stderr)")
        let move = try set("laptop", "laptop-pw-2", sync: true)
        #expect(move.status == 69, "moving laptop: \(move.stderr)")
        let local = try tool(["list", "--place", "local"])
        #expect(local.status == 0, "list --place local: \(local.stderr)")
        #expect(local.text.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["laptop", "moved"])
        #expect(try tool(["get", "laptop"]).text == "laptop-pw\n", "laptop changed after a failed move")

        // list: this machine's records, and says the rest is missing.
        let list = try tool(["list", "--show-place"])
        #expect(list.status == 75, "list: \(list.stderr)")
        #expect(list.text.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["laptop", "moved"])
        #expect(list.stderr.contains("partial"), "\(list.stderr)")

        let doctor = try tool(["doctor"])
        #expect(doctor.text.contains("local store:      file up"), "\(doctor.text)")
        #expect(doctor.text.contains("shared store:     etcd down:"), "\(doctor.text)")
        for output in [newLocal, synced, late, move, list, doctor] {
            #expect(!output.text.contains("-pw"), "a password in the output")
        }
        for output in [get, newLocal, synced, late, move, list, doctor] {
            #expect(!output.stderr.contains("-pw"), "a password on standard error")
        }
    }
}
