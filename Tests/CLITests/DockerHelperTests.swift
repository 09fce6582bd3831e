import Foundation
import KeyringTestSupport
import Testing

/// The docker-credential-helpers protocol as the clients speak it, on every store:
/// servers are unique to each test, as the Secret Service is shared by the whole run.
@Suite("docker credential helper")
struct DockerHelperTests {
    @Test(
        "store, get, list and erase; not found is the clients' exact line on standard output, status 1",
        arguments: DockerHelperStore.allCases)
    func roundTrip(store: DockerHelperStore) throws {
        let sandbox = try Sandbox()
        let helper = DockerHelperClient(environment: try store.environment(sandbox))
        let server = DockerHelperClient.uniqueServer()
        defer { _ = try? helper.run("erase", input: server) }

        let missing = try helper.run("get", input: server)
        #expect(missing.status == 1)
        #expect(missing.text == "credentials not found in native keychain\n", "the Go client compares this text")

        let stored = try helper.store(server, "alice", "s3cret 🔑")
        #expect(stored.status == 0 && stored.stdout.isEmpty, "store: \(stored.text)")
        #expect(try helper.get(server) == DockerHelperClient.Login("alice", "s3cret 🔑"))
        // Replacing keeps one login per server.
        #expect(try helper.store(server, "bob", "second").status == 0)
        #expect(try helper.get(server) == DockerHelperClient.Login("bob", "second"))
        #expect(try helper.list()[server] == "bob")
        // What a person pipes with echo: the reference trims white space around the server.
        #expect(try helper.get(" \(server)\n") == DockerHelperClient.Login("bob", "second"))

        let erased = try helper.run("erase", input: server)
        #expect(erased.status == 0 && erased.stdout.isEmpty)
        #expect(try helper.get(server) == nil)
        #expect(try helper.list()[server] == nil)
        // Erasing what is not there is not an error, as for the reference helpers (podman logout twice).
        #expect(try helper.run("erase", input: server).status == 0)
    }

    @Test("A server is its exact string: scheme, port, path and case are other servers", arguments: DockerHelperStore.allCases)
    func exactServers(store: DockerHelperStore) throws {
        let sandbox = try Sandbox()
        let helper = DockerHelperClient(environment: try store.environment(sandbox))
        let host = "x\(UUID().uuidString.prefix(8).lowercased()).example.com"
        let servers = [
            "\(host):5000", "https://\(host):5000", "\(host)", "\(host):5000/", "https://\(host)/v1/", host.uppercased(),
        ]
        defer { for server in servers { _ = try? helper.run("erase", input: server) } }
        for (index, server) in servers.enumerated() {
            #expect(try helper.store(server, "user\(index)", "pw\(index)").status == 0, "store \(server)")
        }
        let listed = try helper.list()
        for (index, server) in servers.enumerated() {
            #expect(try helper.get(server) == DockerHelperClient.Login("user\(index)", "pw\(index)"), "\(server)")
            #expect(listed[server] == "user\(index)")
        }
        #expect(try helper.get("\(host):500") == nil, "a prefix is not the server")
        #expect(try helper.get("http://\(host):5000") == nil, "http is not https")
    }

    @Test(
        "An identity token is kept as docker keeps it: Username <token>, the token as the Secret",
        arguments: DockerHelperStore.allCases)
    func identityToken(store: DockerHelperStore) throws {
        let sandbox = try Sandbox()
        let helper = DockerHelperClient(environment: try store.environment(sandbox))
        let server = DockerHelperClient.uniqueServer()
        defer { _ = try? helper.run("erase", input: server) }
        #expect(try helper.store(server, "<token>", "eyJhbGciOi.identity&token<>").status == 0)
        let answer = try helper.run("get", input: server)
        // Byte for byte as Go's encoder writes it, HTML-safe escapes and all.
        #expect(
            answer.text
                == "{\"ServerURL\":\"\(server)\",\"Username\":\"\\u003ctoken\\u003e\",\"Secret\":\"eyJhbGciOi.identity\\u0026token\\u003c\\u003e\"}\n"
        )
        #expect(try helper.list()[server] == "<token>")
    }

    @Test("A record the helper did not write is never answered, listed or erased", arguments: DockerHelperStore.allCases)
    func foreignRecords(store: DockerHelperStore) throws {
        let sandbox = try Sandbox()
        let environment = try store.environment(sandbox)
        let helper = DockerHelperClient(environment: environment)
        let server = DockerHelperClient.uniqueServer()
        let set = try CLI.run(
            ["set", "--service", "docker-credential", server, "--username", "eve", "--url", "https://elsewhere.example.com"],
            stdin: "planted-pw", environment: environment)
        try #require(set.status == 0, "set: \(set.stderr)")
        defer { _ = try? CLI.run(["remove", "--service", "docker-credential", server], environment: environment) }

        let answer = try helper.run("get", input: server)
        #expect(answer.status == 1 && answer.text == "credentials not found in native keychain\n")
        #expect(answer.stderr.contains("did not write it") && !answer.allOutputContains("planted-pw"))
        #expect(try helper.list()[server] == nil)
        #expect(try helper.run("erase", input: server).status == 0)
        let kept = try CLI.run(["get", "--service", "docker-credential", server], environment: environment)
        #expect(kept.stdout == "planted-pw\n", "erase removed a record the helper did not write")
    }

    @Test(
        "The secret appears on standard output only, for get; never on standard error or in a failure",
        arguments: DockerHelperStore.allCases)
    func secretOnlyInAnswer(store: DockerHelperStore) throws {
        let sandbox = try Sandbox()
        var environment = try store.environment(sandbox)
        environment["SWIFT_KEYRING_LOG_LEVEL"] = "trace"
        let helper = DockerHelperClient(environment: environment)
        let server = DockerHelperClient.uniqueServer()
        defer { _ = try? helper.run("erase", input: server) }
        let stored = try helper.store(server, "alice", "never-printed-pw")
        #expect(stored.status == 0 && !stored.allOutputContains("never-printed-pw"))
        let answer = try helper.run("get", input: server)
        #expect(answer.text.contains("never-printed-pw") && !answer.stderr.contains("never-printed-pw"))
        let listed = try helper.run("list")
        #expect(!listed.allOutputContains("never-printed-pw"))
    }

    @Test("version and usage; store options before the action, as in a wrapper script")
    func versionAndOptions() throws {
        let sandbox = try Sandbox()
        let helper = DockerHelperClient(environment: sandbox.fileEnvironment())
        let version = try helper.run("version")
        #expect(version.status == 0 && version.text.hasPrefix("docker-credential-swift-keyring (swift-keyring) "))
        let unknown = try helper.run("bogus")
        #expect(unknown.status != 0 && unknown.text.contains("unknown action: bogus"))

        // Another service and another file, named by options: the default one stays empty.
        // In a folder of its own: the file store refuses a folder others can enter (the sandbox's).
        let otherFolder = sandbox.folder.appendingPathComponent("other")
        try FileManager.default.createDirectory(
            at: otherFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let other = otherFolder.appendingPathComponent("other.skr").path
        var wrapped = helper
        wrapped.options = ["--service", "ci-registry", "--file=\(other)"]
        let stored = try wrapped.store("ci.example.com", "ci", "ci-pw")
        #expect(stored.status == 0, "\(stored.text)")
        #expect(try wrapped.get("ci.example.com") == DockerHelperClient.Login("ci", "ci-pw"))
        #expect(try helper.get("ci.example.com") == nil)
        #expect(FileManager.default.fileExists(atPath: other))
        var bad = helper
        bad.options = ["--no-such-option"]
        let refused = try bad.run("list")
        #expect(refused.status == 64 && refused.text.contains("unknown option --no-such-option"))
    }
}

extension CommandResult {
    /// Whether either stream holds `text`.
    func allOutputContains(_ text: String) -> Bool { self.text.contains(text) || stderr.contains(text) }
}
