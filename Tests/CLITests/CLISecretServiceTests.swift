import Foundation
import Testing

/// Every record subcommand on the real Secret Service (the private gnome-keyring of
/// `Scripts/with-secret-service.sh`); these fail, never skip, when it is not there.
@Suite("CLI on the Secret Service")
struct CLISecretServiceTests {
    static let password = "sécret with \"quotes\" and spaces 🔐"

    private func environment(_ sandbox: Sandbox, service: String) throws -> [String: String] {
        try #require(
            ProcessInfo.processInfo.environment["SWIFT_KEYRING_PRIVATE_SECRET_SERVICE"] == "1",
            "run the tests through Scripts/with-secret-service.sh (Scripts/test.sh does)"
        )
        return sandbox.secretServiceEnvironment(["SWIFT_KEYRING_SERVICE": service])
    }

    @Test("set, get, get --json, list, remove and remove-all round-trip on the daemon")
    func records() throws {
        let sandbox = try Sandbox()
        let service = "cli.\(UUID().uuidString.lowercased())"
        let env = try environment(sandbox, service: service)
        let set = try CLI.run(["set", "work", "--username", "alice", "--url", "https://mail.example.com", "--background-access"],
                              stdin: Self.password + "\n", environment: env)
        #expect(set.status == 0, "set failed: \(set.stderr)")
        #expect(try CLI.run(["get", "work"], environment: env).stdout == Self.password + "\n")

        let json = try CLI.run(["get", "work", "--json"], environment: env)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["password"] as? String == Self.password)
        #expect(object["backgroundAccess"] as? Bool == true)

        _ = try CLI.run(["set", "--username", "me", "--url", "https://mail.example.com"], stdin: "default-pw", environment: env)
        let list = try CLI.run(["list"], environment: env)
        #expect(list.stdout == "@default\tme\thttps://mail.example.com\t-\nwork\talice\thttps://mail.example.com\tbackground-access\n")
        #expect(!list.allOutput.contains(Self.password) && !list.allOutput.contains("default-pw"))

        #expect(try CLI.run(["remove", "work"], environment: env).status == 0)
        #expect(try CLI.run(["get", "work"], environment: env).status == 1)
        #expect(try CLI.run(["remove-all", "--yes"], environment: env).stdout == "Removed 1 record of \(service).\n")
        #expect(try CLI.run(["list"], environment: env).stdout.isEmpty)
    }

    @Test("What the tool stores, secret-tool finds")
    func interop() throws {
        let sandbox = try Sandbox()
        let service = "cli.\(UUID().uuidString.lowercased())"
        let env = try environment(sandbox, service: service)
        #expect(try CLI.run(["set", "k", "--username", "u", "--url", "https://x.example"], stdin: Self.password, environment: env).status == 0)
        let lookup = Process()
        lookup.executableURL = URL(fileURLWithPath: "/usr/bin/secret-tool")
        lookup.arguments = ["lookup", "tag", "swift-keyring", "service", service, "key", "k"]
        let output = Pipe()
        lookup.standardOutput = output
        try lookup.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        lookup.waitUntilExit()
        #expect(String(decoding: printed, as: UTF8.self) == Self.password)
        _ = try CLI.run(["remove-all", "--yes"], environment: env)
    }
}
