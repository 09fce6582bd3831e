import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// libsecret's file keyed by the Secret portal, as a Snap or Flatpak app has it:
/// `secret-tool` with `SNAP_NAME` set (libsecret's own test for a sandbox) and our
/// store on one app's file, both ways, with xdg-desktop-portal and gnome-keyring on
/// a bus of the test's own. Each app has its own `XDG_DATA_HOME`.
@Suite("libsecret file keyed by the Secret portal: interop with secret-tool")
struct LibsecretPortalInteropTests {
    /// `secret-tool` as the sandboxed app `environment` runs it; fails the test when it fails.
    @discardableResult
    private static func secretTool(
        _ sandbox: PortalSandbox, _ arguments: [String], _ environment: [String: String], stdin: String? = nil
    ) throws -> CommandResult {
        let result = try sandbox.secretTool(arguments, environment, stdin: stdin)
        #expect(result.status == 0, "secret-tool \(arguments.first ?? "") failed: \(result.stderr)")
        return result
    }

    private static func file(_ environment: [String: String]) -> URL {
        URL(fileURLWithPath: environment["XDG_DATA_HOME"]!).appendingPathComponent("keyrings/default.keyring")
    }

    @Test("What secret-tool wrote in a Snap we read with the portal's key; our keyring chose that file by itself")
    func weReadSecretTool() throws {
        let sandbox = try PortalSandbox()
        defer { sandbox.stop() }
        let app = try sandbox.appEnvironment()
        try Self.secretTool(
            sandbox,
            [
                "store", "--label=Work mail", "tag", "swift-keyring", "service", "com.example.mail", "key", "work", "kind",
                "credentials", "username", "alice", "url", "https://mail.example.com", "sync", "false", "background-access",
                "false",
            ], app, stdin: "pässword from secret-tool")
        #expect(FileManager.default.fileExists(atPath: Self.file(app).path))
        let keyring = try Keyring(service: "com.example.mail", configuration: KeyringConfiguration(environment: app))
        #expect(keyring.selection.kind == .libsecretFile)
        #expect(keyring.selection.reason.contains("SNAP_NAME is set"))
        #expect(keyring.selection.keySource?.contains("Secret portal") == true)
        let credentials = try #require(try keyring.credentials(forKey: "work"))
        #expect(credentials.username == "alice")
        #expect(credentials.password == "pässword from secret-tool")
        // libsecret made keyrings/ at 0755 (its umask); opening closed it to others.
        let folder = try FileManager.default.attributesOfItem(atPath: Self.file(app).deletingLastPathComponent().path)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
    }

    @Test("What we write in a Snap secret-tool reads there, and gnome-keyring's own collections stay empty")
    func secretToolReadsUs() throws {
        let sandbox = try PortalSandbox()
        defer { sandbox.stop() }
        let app = try sandbox.appEnvironment()
        let keyring = try Keyring(service: "com.example.chat", configuration: KeyringConfiguration(environment: app))
        try keyring.set(
            try Credentials(username: "bob", password: "our password ✓", url: URL(string: "https://chat.example.com")!),
            forKey: "github")
        let lookup = try Self.secretTool(sandbox, ["lookup", "service", "com.example.chat", "key", "github"], app)
        #expect(lookup.text == "our password ✓")
        let attributes = try FileManager.default.attributesOfItem(atPath: Self.file(app).path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // Outside the sandbox, on the same bus, the Secret Service holds no record of ours.
        var host = sandbox.environment
        host["SNAP_NAME"] = nil
        let search = try Command.run("secret-tool", ["search", "--all", "service", "com.example.chat"], environment: host)
        #expect(!(search.text + search.stderr).contains("com.example.chat"))
    }

    @Test("One file both wrote keeps everyone's items")
    func bothWriters() throws {
        let sandbox = try PortalSandbox()
        defer { sandbox.stop() }
        let app = try sandbox.appEnvironment()
        try Self.secretTool(sandbox, ["store", "--label=Foreign", "app", "other", "account", "x"], app, stdin: "foreign secret")
        let keyring = try Keyring(service: "com.example.both", configuration: KeyringConfiguration(environment: app))
        try keyring.setSecret(Data("one".utf8), forKey: "first")
        try Self.secretTool(
            sandbox, ["store", "--label=Foreign 2", "app", "other", "account", "y"], app, stdin: "foreign secret 2")
        try keyring.setSecret(Data("two".utf8), forKey: "second")
        // A new keyring reads the file afresh: secret-tool's second item did not cost us ours.
        let reopened = try Keyring(service: "com.example.both", configuration: KeyringConfiguration(environment: app))
        #expect(try reopened.secretKeys() == ["first", "second"])
        #expect(try Self.secretTool(sandbox, ["lookup", "app", "other", "account", "x"], app).text == "foreign secret")
        #expect(try Self.secretTool(sandbox, ["lookup", "app", "other", "account", "y"], app).text == "foreign secret 2")
        #expect(try Self.secretTool(sandbox, ["lookup", "service", "com.example.both", "key", "first"], app).text == "one")
    }

    @Test("Two apps, two files: each reads its own, and one app's records are not in the other's file")
    func twoApps() throws {
        let sandbox = try PortalSandbox()
        defer { sandbox.stop() }
        let first = try sandbox.appEnvironment()
        let second = try sandbox.appEnvironment()
        try Keyring(service: "com.example.one", configuration: KeyringConfiguration(environment: first))
            .setSecret(Data("mine".utf8), forKey: "k")
        let other = try Keyring(service: "com.example.one", configuration: KeyringConfiguration(environment: second))
        #expect(try other.secret(forKey: "k") == nil)
        #expect(try Self.secretTool(sandbox, ["lookup", "service", "com.example.one", "key", "k"], first).text == "mine")
    }

    @Test("Asked for outside a sandbox, libsecret's file is keyed by the portal when one answers, as secret-tool in a Snap")
    func explicitWithPortal() throws {
        let sandbox = try PortalSandbox()
        defer { sandbox.stop() }
        var host = try sandbox.appEnvironment(snap: nil)
        host["SWIFT_KEYRING_BACKEND"] = "libsecret-file"
        let keyring = try Keyring(service: "com.example.host", configuration: KeyringConfiguration(environment: host))
        #expect(keyring.selection.kind == .libsecretFile)
        #expect(keyring.selection.reason.hasPrefix("forced by SWIFT_KEYRING_BACKEND"))
        #expect(
            keyring.selection.keySource?.contains("because no passphrase or key is set and the Secret portal answers") == true)
        try keyring.setSecret(Data("from the host".utf8), forKey: "k")
        var snap = host
        snap["SNAP_NAME"] = "x"
        snap["SWIFT_KEYRING_BACKEND"] = nil
        #expect(
            try Self.secretTool(sandbox, ["lookup", "service", "com.example.host", "key", "k"], snap).text == "from the host")
    }
}
