import Foundation
import KeyringTestSupport
import Testing

/// `docker-credential-swift-keyring import`: the logins of a docker `config.json`, a containers
/// `auth.json` and docker-credential-secretservice's items become records the helper answers;
/// the file is rewritten to name the helper only with `--rewrite`, its old bytes kept in a 0600 copy.
@Suite("docker credential helper import")
struct DockerImportTests {
    /// A docker config.json with a password login, an identity token, a marker entry and other members.
    static func config(server: String, hub: String) -> String {
        let auth = Data("alice:pa:ss word".utf8).base64EncodedString()
        return """
            {
              "auths": {
                "\(server)": {"auth": "\(auth)"},
                "\(hub)": {"auth": "\(Data("<token>:".utf8).base64EncodedString())", "identitytoken": "identity-token-1"},
                "marker.example.com": {}
              },
              "credHelpers": {"other.example.com": "pass"},
              "proxies": {"default": {"httpProxy": "http://proxy.example.com:3128"}}
            }

            """
    }

    @Test("Without --rewrite the file is left byte for byte; the logins are answered", arguments: DockerHelperStore.allCases)
    func importLeavesFile(store: DockerHelperStore) throws {
        let sandbox = try Sandbox()
        let helper = DockerHelperClient(environment: try store.environment(sandbox))
        let server = DockerHelperClient.uniqueServer()
        let hub = "https://\(UUID().uuidString.prefix(8).lowercased()).example.com/v1/"
        defer { for name in [server, hub] { _ = try? helper.run("erase", input: name) } }
        let file = sandbox.folder.appendingPathComponent("config.json")
        let original = Data(Self.config(server: server, hub: hub).utf8)
        try original.write(to: file)

        let imported = try helper.run("import", arguments: [file.path])
        #expect(imported.status == 0, "\(imported.text)")
        #expect(imported.text.hasPrefix("Copied 2 logins from \(file.path) to the service docker-credential.\n"))
        #expect(imported.text.contains("Passed over marker.example.com: it holds no login"))
        #expect(!imported.allOutputContains("pa:ss") && !imported.allOutputContains("identity-token-1"))
        #expect(try Data(contentsOf: file) == original, "the file changed without --rewrite")
        #expect(!FileManager.default.fileExists(atPath: file.path + ".before-swift-keyring"))
        #expect(try helper.get(server) == DockerHelperClient.Login("alice", "pa:ss word"))
        #expect(try helper.get(hub) == DockerHelperClient.Login("<token>", "identity-token-1"))
    }

    @Test("--rewrite names the helper in credHelpers, keeps no secret and keeps a 0600 copy of the old file")
    func rewrite() throws {
        let sandbox = try Sandbox()
        let helper = DockerHelperClient(environment: sandbox.fileEnvironment())
        let server = DockerHelperClient.uniqueServer()
        let hub = "https://hub.example.com/v1/"
        let file = sandbox.folder.appendingPathComponent("config.json")
        let original = Data(Self.config(server: server, hub: hub).utf8)
        try original.write(to: file)

        let imported = try helper.run("import", arguments: ["--rewrite", file.path])
        #expect(imported.status == 0, "\(imported.text)")
        let copy = URL(fileURLWithPath: file.path + ".before-swift-keyring")
        #expect(try Data(contentsOf: copy) == original)
        let copyMode = try FileManager.default.attributesOfItem(atPath: copy.path)[.posixPermissions] as? Int
        #expect(copyMode == 0o600)
        let rewritten = try Data(contentsOf: file)
        let text = String(decoding: rewritten, as: UTF8.self)
        #expect(!text.contains("identity-token-1") && !text.contains(Data("alice:pa:ss word".utf8).base64EncodedString()))
        let object = try #require(try JSONSerialization.jsonObject(with: rewritten) as? [String: Any])
        #expect(
            object["credHelpers"] as? [String: String]
                == ["other.example.com": "pass", server: "swift-keyring", hub: "swift-keyring"])
        #expect((object["auths"] as? [String: Any])?.keys.sorted() == ["marker.example.com"])
        #expect(text.contains("\"proxies\": {\"default\": {\"httpProxy\": \"http://proxy.example.com:3128\"}}"))
        #expect(try helper.get(server) == DockerHelperClient.Login("alice", "pa:ss word"))

        // A second run would overwrite the copy: refused, and nothing changes.
        let again = try helper.run("import", arguments: ["--rewrite", file.path])
        #expect(again.status == 65 && again.text.contains("is there already"))
        #expect(try Data(contentsOf: file) == rewritten && (try Data(contentsOf: copy)) == original)
    }

    @Test("A file that is not JSON is refused, naming it; nothing is stored or written")
    func badFile() throws {
        let sandbox = try Sandbox()
        let helper = DockerHelperClient(environment: sandbox.fileEnvironment())
        let file = sandbox.folder.appendingPathComponent("auth.json")
        let bad = Data("{\"auths\": {\"bad.example.com\": {\"auth\": \"YTpi\"}}".utf8)
        try bad.write(to: file)
        let result = try helper.run("import", arguments: ["--rewrite", file.path])
        #expect(result.status == 65 && result.text.contains("import: \(file.path): "), "\(result.text)")
        #expect(try Data(contentsOf: file) == bad)
        #expect(try helper.list().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: file.path + ".before-swift-keyring"))
    }

    @Test("docker-credential-secretservice's items are copied into the file store; the originals stay")
    func fromSecretService() throws {
        let sandbox = try Sandbox()
        let bus = try DockerHelperStore.secretService.environment(sandbox)
        var reference = DockerHelperClient(environment: bus)
        reference.program = "/usr/bin/docker-credential-secretservice"
        let server = DockerHelperClient.uniqueServer()
        let tokenServer = DockerHelperClient.uniqueServer()
        defer { for name in [server, tokenServer] { _ = try? reference.run("erase", input: name) } }
        try #require(try reference.store(server, "alice", "ss-pw").status == 0)
        try #require(try reference.store(tokenServer, "<token>", "ss-token").status == 0)

        // Into the encrypted file: the bus is there only to read the source.
        let target = sandbox.fileEnvironment().merging(bus.filter { $0.key != "SWIFT_KEYRING_BACKEND" }) { file, _ in file }
        let helper = DockerHelperClient(environment: target)
        let imported = try helper.run("import", arguments: ["--secretservice"])
        #expect(imported.status == 0, "\(imported.text)")
        #expect(!imported.allOutputContains("ss-pw") && !imported.allOutputContains("ss-token"))
        #expect(try helper.get(server) == DockerHelperClient.Login("alice", "ss-pw"))
        #expect(try helper.get(tokenServer) == DockerHelperClient.Login("<token>", "ss-token"))
        #expect(try reference.get(server) == DockerHelperClient.Login("alice", "ss-pw"), "the original was removed")
    }
}
