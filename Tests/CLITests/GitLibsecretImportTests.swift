import Foundation
import KeyringTestSupport
import Testing

/// `swift-keyring import git-libsecret` from items written as git-credential-libsecret writes
/// them (schema org.gnome.keyring.NetworkPassword), on the private Secret Service.
@Suite("git-credential-libsecret import")
struct GitLibsecretImportTests {
    /// Stores one item as git-credential-libsecret does, with `secret-tool store`.
    static func storeLibsecretItem(_ attributes: [String: String], password: String, environment: [String: String]) throws {
        var arguments = [
            "store", "--label=Git: \(attributes["server"] ?? "")", "xdg:schema", "org.gnome.keyring.NetworkPassword",
        ]
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) { arguments += [name, value] }
        let result = try Command.run("/usr/bin/secret-tool", arguments, environment: environment, stdin: password)
        try #require(result.status == 0, "secret-tool store failed: \(result.stderr)")
    }

    @Test("http and https items are copied into the helper's records and the originals stay; others are skipped")
    func importItems() throws {
        try #require(
            ProcessInfo.processInfo.environment["SWIFT_KEYRING_PRIVATE_SECRET_SERVICE"] == "1",
            "run the tests through Scripts/with-secret-service.sh (Scripts/test.sh does)")
        let sandbox = try Sandbox()
        let server = "lib\(UUID().uuidString.prefix(8).lowercased()).example.com"
        let bus = sandbox.secretServiceEnvironment()
        let items: [([String: String], String)] = [
            (["user": "alice", "protocol": "https", "server": server], "alice-token"),
            (["user": "bob", "protocol": "https", "server": server, "port": "8443", "object": "org/repo.git"], "bob-pw"),
            (["user": "", "protocol": "http", "server": server], "empty-user-token"),
            (["user": "carol", "protocol": "smtp", "server": server], "mail-pw"),
        ]
        for (attributes, password) in items {
            try Self.storeLibsecretItem(attributes, password: password, environment: bus)
        }
        defer {
            _ = try? Command.run(
                "/usr/bin/secret-tool", ["clear", "xdg:schema", "org.gnome.keyring.NetworkPassword", "server", server],
                environment: bus)
        }
        // Into the encrypted file: the source is the Secret Service whatever the target.
        let target = sandbox.fileEnvironment().merging(bus.filter { $0.key != "SWIFT_KEYRING_BACKEND" }) { file, _ in file }
        let imported = try CLI.run(["import", "git-libsecret"], environment: target)
        #expect(imported.status == 0, "import failed: \(imported.stderr)")
        #expect(imported.stdout.hasPrefix("Copied 3 credentials from git-credential-libsecret to the service git-credential.\n"))
        #expect(imported.stdout.contains("Skipped 1: not an http or https credential"))
        #expect(!imported.allOutput.contains("alice-token") && !imported.allOutput.contains("bob-pw"))

        let git = GitClient(sandbox: sandbox, storeEnvironment: target)
        #expect(try GitCredentialHelperTests.fill(git, ["protocol=https", "host=\(server)"])! == ("alice", "alice-token"))
        let bob = ["protocol=https", "host=\(server):8443", "path=org/repo.git"]
        #expect(try GitCredentialHelperTests.fill(git, bob)! == ("bob", "bob-pw"))
        #expect(try GitCredentialHelperTests.fill(git, ["protocol=http", "host=\(server)"])! == ("", "empty-user-token"))

        let original = try Command.run(
            "/usr/bin/secret-tool",
            ["lookup", "xdg:schema", "org.gnome.keyring.NetworkPassword", "server", server, "user", "alice"],
            environment: bus)
        #expect(original.text == "alice-token", "the original item is gone")
    }
}
