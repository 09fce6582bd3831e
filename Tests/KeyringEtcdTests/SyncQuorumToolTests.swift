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
        // A call that waited for the cluster would take its whole 5 s bound; these are far inside it.
        func tool(_ arguments: [String], stdin: String? = nil, within seconds: TimeInterval = 30) throws -> CommandResult {
            try Command.run(
                Command.tool, arguments + ["--service", service], environment: environment, stdin: stdin, timeout: seconds)
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

        // Device-only calls, each in a new process: they never wait for the cluster's bound.
        let started = ContinuousClock.now
        let get = try tool(["get", "laptop"], within: 4)
        #expect(get.status == 0, "get laptop: \(get.stderr)")
        #expect(get.text == "laptop-pw\n", "get laptop printed another password")
        let newLocal = try set("newlocal", "newlocal-pw", sync: false)
        #expect(newLocal.status == 0, "set newlocal: \(newLocal.stderr)")
        #expect(try tool(["get", "newlocal"], within: 4).text == "newlocal-pw\n", "get newlocal printed another password")
        #expect(try tool(["get", "moved"], within: 4).text == "moved-pw-2\n", "get moved printed another password")
        #expect(try set("moved", "moved-pw-3", sync: false).status == 0)
        #expect(try tool(["remove", "newlocal"], within: 4).status == 0)
        let gitGet = try git("get", "protocol=https\nhost=git.example.com\n\n")
        #expect(gitGet.status == 0, "git get: \(gitGet.stderr)")
        #expect(gitGet.text.contains("password=git-pw\n"), "git get answered another password")
        #expect(ContinuousClock.now - started < .seconds(20))

        // Synced calls: unavailable (69) within the bound, nothing written here.
        let synced = try tool(["get", "fleet"], within: 15)
        #expect(synced.status == 69, "get fleet: \(synced.stderr)")
        let late = try set("late", "late-pw", sync: true)
        #expect(late.status == 69, "set late: \(late.stderr)")
        let move = try set("laptop", "laptop-pw-2", sync: true)
        #expect(move.status == 69, "moving laptop: \(move.stderr)")
        let local = try tool(["list", "--place", "local"])
        #expect(local.status == 0, "list --place local: \(local.stderr)")
        #expect(local.text.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["laptop", "moved"])
        #expect(try tool(["get", "laptop"], within: 4).text == "laptop-pw\n", "laptop changed after a failed move")

        // list: this machine's records, and says the rest is missing.
        let list = try tool(["list", "--show-place"], within: 15)
        #expect(list.status == 75, "list: \(list.stderr)")
        #expect(list.text.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["laptop", "moved"])
        #expect(list.stderr.contains("partial"), "\(list.stderr)")

        let doctor = try tool(["doctor"], within: 30)
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
