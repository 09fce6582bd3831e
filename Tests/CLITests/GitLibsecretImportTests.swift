import Foundation
import KeyringTestSupport
import Testing

/// `swift-keyring import git-libsecret` from items written as git-credential-libsecret writes
/// them (schema org.gnome.keyring.NetworkPassword), on the private Secret Service.
/// Serialized: each test counts what one import copies from the one Secret Service.
@Suite("git-credential-libsecret import", .serialized)
struct GitLibsecretImportTests {
    /// Stores one item as git-credential-libsecret does, with `secret-tool store`.
    static func storeLibsecretItem(
        _ attributes: [String: String], password: String, environment: [String: String],
        schema: String = "org.gnome.keyring.NetworkPassword"
    ) throws {
        var arguments = ["store", "--label=Git: \(attributes["server"] ?? "")", "xdg:schema", schema]
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) { arguments += [name, value] }
        let result = try Command.run("/usr/bin/secret-tool", arguments, environment: environment, stdin: password)
        try #require(result.status == 0, "secret-tool store failed: \(result.stderr)")
    }

    /// A sandbox, a server name of its own, the private Secret Service's environment, and the
    /// import's: into the encrypted file, since the source is the Secret Service whatever the target.
    static func setUp() throws -> (Sandbox, String, [String: String], [String: String]) {
        try #require(
            ProcessInfo.processInfo.environment["SWIFT_KEYRING_PRIVATE_SECRET_SERVICE"] == "1",
            "run the tests through Scripts/with-secret-service.sh (Scripts/test.sh does)")
        let sandbox = try Sandbox()
        let bus = sandbox.secretServiceEnvironment()
        let target = sandbox.fileEnvironment().merging(bus.filter { $0.key != "SWIFT_KEYRING_BACKEND" }) { file, _ in file }
        return (sandbox, "lib\(UUID().uuidString.prefix(8).lowercased()).example.com", bus, target)
    }

    @Test("http and https items are copied into the helper's records and the originals stay; others are skipped")
    func importItems() throws {
        let (sandbox, server, bus, target) = try Self.setUp()
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

    /// git 2.45 and later write their own schema, org.git.Password, with the expiry and refresh
    /// token as lines of the secret; git 2.41 to 2.44 wrote the expiry as an attribute.
    @Test("The expiry and refresh token git-credential-libsecret kept come over, in both of its layouts")
    func importExpiryAndRefreshToken() throws {
        let (sandbox, server, bus, target) = try Self.setUp()
        let token = "rt-\u{0D4E}@/%=-\(UUID().uuidString)"
        let newer = "pw-new\npassword_expiry_utc=4102444800\noauth_refresh_token=\(token)"
        try Self.storeLibsecretItem(
            ["user": "carol", "protocol": "https", "server": server], password: newer, environment: bus,
            schema: "org.git.Password")
        try Self.storeLibsecretItem(
            ["user": "dave", "protocol": "https", "server": server, "password_expiry_utc": "4102444801"],
            password: "pw-older", environment: bus)
        try Self.storeLibsecretItem(
            ["user": "erin", "protocol": "https", "server": server], password: "pw-gone\npassword_expiry_utc=1",
            environment: bus, schema: "org.git.Password")
        defer {
            for schema in ["org.git.Password", "org.gnome.keyring.NetworkPassword"] {
                _ = try? Command.run("/usr/bin/secret-tool", ["clear", "xdg:schema", schema, "server", server], environment: bus)
            }
        }
        let imported = try CLI.run(["import", "git-libsecret"], environment: target)
        #expect(imported.status == 0, "import failed: \(imported.stderr)")
        #expect(imported.stdout.hasPrefix("Copied 3 credentials"), "\(imported.stdout)")
        #expect(!imported.allOutput.contains("rt-") && !imported.allOutput.contains("pw-"))

        let git = GitClient(sandbox: sandbox, storeEnvironment: target)
        func get(_ user: String) throws -> String {
            try git.helper("get", input: Data("protocol=https\nhost=\(server)\nusername=\(user)\n".utf8)).text
        }
        let carol = "username=carol\npassword=pw-new\npassword_expiry_utc=4102444800\noauth_refresh_token=\(token)\n"
        let carolSame = Array(try get("carol").utf8) == Array(carol.utf8)
        #expect(carolSame, "carol's refresh token or expiry (org.git.Password) did not come over byte for byte")
        let daveSame = try get("dave") == "username=dave\npassword=pw-older\npassword_expiry_utc=4102444801\n"
        #expect(daveSame, "dave's expiry (an attribute, git 2.41 to 2.44) did not come over")
        #expect(try get("erin").isEmpty, "erin's expired credential was answered")
    }
}
