import Foundation
import Testing

/// set, get, list, remove and remove-all on the encrypted file, as a script would use them.
@Suite("CLI records on the file store")
struct CLIRecordTests {
    static let hardPassword = "  spaces, \"double\" and 'single' quotes, `ticks`, $HOME, ünïcødé, 鍵, 🔑 \\ end "

    @Test("A piped password with spaces, quotes and non-ASCII text reads back exactly")
    func setAndGet() throws {
        let sandbox = try Sandbox()
        let env = sandbox.fileEnvironment()
        let set = try CLI.run(
            ["set", "github", "--username", "alice", "--url", "https://github.com"],
            stdin: Self.hardPassword + "\n", environment: env)
        #expect(set.status == 0, "set failed: \(set.stderr)")
        let get = try CLI.run(["get", "github"], environment: env)
        #expect(get.status == 0)
        #expect(get.stdout == Self.hardPassword + "\n")
    }

    @Test("Only one trailing newline is removed from a piped password")
    func trailingNewline() throws {
        let sandbox = try Sandbox()
        let env = sandbox.fileEnvironment()
        _ = try CLI.run(["set", "--username", "alice", "--url", "https://example.com"], stdin: "pw\r\n\n", environment: env)
        #expect(try CLI.run(["get"], environment: env).stdout == "pw\r\n\n")
    }

    @Test("get --json prints one object with the six fields")
    func getJSON() throws {
        let sandbox = try Sandbox()
        let env = sandbox.fileEnvironment()
        _ = try CLI.run(
            ["set", "work", "--username", "bob", "--url", "HTTPS://Example.com:8443/path", "--sync"],
            stdin: Self.hardPassword, environment: env)
        let get = try CLI.run(["get", "work", "--json"], environment: env)
        #expect(get.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(get.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["key", "username", "password", "url", "sync", "backgroundAccess"])
        #expect(object["key"] as? String == "work")
        #expect(object["username"] as? String == "bob")
        #expect(object["password"] as? String == Self.hardPassword)
        #expect(object["url"] as? String == "HTTPS://Example.com:8443/path")
        #expect(object["sync"] as? Bool == true)
        #expect(object["backgroundAccess"] as? Bool == false)
    }

    @Test("list shows key, username, URL and flags, filters on flags, and never a password")
    func list() throws {
        let sandbox = try Sandbox()
        let env = sandbox.fileEnvironment()
        _ = try CLI.run(["set", "--username", "main", "--url", "https://a.example"], stdin: "secret-one", environment: env)
        _ = try CLI.run(
            ["set", "s", "--username", "syncer", "--url", "https://b.example", "--sync"], stdin: "secret-two", environment: env)
        _ = try CLI.run(
            ["set", "b", "--username", "bg", "--url", "https://c.example", "--background-access"], stdin: "secret-three",
            environment: env)
        let list = try CLI.run(["list"], environment: env)
        #expect(list.status == 0)
        #expect(
            list.stdout == """
                @default\tmain\thttps://a.example\t-
                b\tbg\thttps://c.example\tbackground-access
                s\tsyncer\thttps://b.example\tsync

                """)
        #expect(try CLI.run(["list", "--sync-only"], environment: env).stdout == "s\tsyncer\thttps://b.example\tsync\n")
        #expect(try CLI.run(["list", "--background-access-only"], environment: env).stdout.hasPrefix("b\tbg"))

        let json = try CLI.run(["list", "--json"], environment: env)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 3)
        #expect(array.allSatisfy { Set($0.keys) == ["key", "username", "url", "sync", "backgroundAccess", "place"] })
        // Without a shared store every record lives on this machine.
        #expect(array.allSatisfy { $0["place"] as? String == "local" })
        for output in [list.allOutput, json.allOutput] {
            for secret in ["secret-one", "secret-two", "secret-three"] {
                #expect(!output.contains(secret))
            }
        }
    }

    @Test("remove takes one record; remove-all --yes takes the service's records and no other service's")
    func remove() throws {
        let sandbox = try Sandbox()
        let env = sandbox.fileEnvironment()
        _ = try CLI.run(["set", "one", "--username", "a", "--url", "https://a.example"], stdin: "1", environment: env)
        _ = try CLI.run(["set", "two", "--username", "b", "--url", "https://a.example"], stdin: "2", environment: env)
        _ = try CLI.run(
            ["set", "keep", "--username", "c", "--url", "https://a.example", "--service", "other"], stdin: "3", environment: env)
        #expect(try CLI.run(["remove", "one"], environment: env).status == 0)
        #expect(try CLI.run(["get", "one"], environment: env).status == 1)
        let removeAll = try CLI.run(["remove-all", "--yes"], environment: env)
        #expect(removeAll.status == 0)
        #expect(removeAll.stdout == "Removed 1 record of default.\n")
        #expect(try CLI.run(["list"], environment: env).stdout.isEmpty)
        let other = try CLI.run(["get", "keep"], environment: env.merging(["SWIFT_KEYRING_SERVICE": "other"]) { $1 })
        #expect(other.stdout == "3\n")
    }

    @Test("The global options work after the subcommand and as environment variables, the option winning")
    func optionsAndEnvironment() throws {
        let sandbox = try Sandbox()
        var env = sandbox.fileEnvironment()
        env.removeValue(forKey: "SWIFT_KEYRING_BACKEND")
        env.removeValue(forKey: "SWIFT_KEYRING_FILE")
        let other = sandbox.folder.appendingPathComponent("other/keyring.skr").path
        let set = try CLI.run(
            [
                "set", "k", "--username", "u", "--url", "https://x.example",
                "--backend", "file", "--file", other, "--service", "svc",
            ], stdin: "pw", environment: env)
        #expect(set.status == 0, "set failed: \(set.stderr)")
        #expect(FileManager.default.fileExists(atPath: other))
        var viaEnvironment = env
        viaEnvironment["SWIFT_KEYRING_BACKEND"] = "file"
        viaEnvironment["SWIFT_KEYRING_FILE"] = other
        viaEnvironment["SWIFT_KEYRING_SERVICE"] = "svc"
        #expect(try CLI.run(["get", "k"], environment: viaEnvironment).stdout == "pw\n")
        #expect(try CLI.run(["get", "k", "--service", "default"], environment: viaEnvironment).status == 1)
    }
}
