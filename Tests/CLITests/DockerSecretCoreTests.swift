import Foundation
import KeyringTestSupport
import Testing

/// What a core of the docker helper holds once it has stored or answered a login: a core taken
/// at its exit (gdb, caught at `exit_group`), as ``CLISecretCoreTests`` takes the tool's and the
/// git helper's. The record is in the kernel store, so a copy in the process is one the helper made.
@Suite("Docker helper secrets in a core")
struct DockerSecretCoreTests {
    /// The helper sets itself undumpable, as the tool does: the same need, root's gdb.
    @Test(
        "After the docker helper stores a login and answers get, its memory holds no copy of the secret",
        CLISecretCoreTests.canDump.trait())
    func helperLeavesNoCopy() throws {
        try CLISecretCoreTests.canDump.require()
        let cores = CLISecretCoreTests()
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = try Sandbox().baseEnvironment().merging(["SWIFT_KEYRING_BACKEND": "kernel"]) { $1 }
        let helper = URL(fileURLWithPath: DockerHelperClient.helper)
        let client = DockerHelperClient(environment: environment)
        let server = DockerHelperClient.uniqueServer()
        defer { _ = try? client.run("erase", input: server) }
        // The secret holds a quote and a backslash, so the JSON the helper reads and writes holds
        // them escaped: the search looks for the part every form shares, the UUID.
        let mark = UUID().uuidString
        let username = "alice-\(UUID().uuidString)"
        let secret = "docker-core\"\(mark)\\"
        let request = try JSONSerialization.data(
            withJSONObject: ["ServerURL": server, "Username": username, "Secret": secret])

        // The first store makes the record; the second replaces it, as a second login does.
        for way in ["makes", "replaces"] {
            let stored = try cores.core(
                ["store"], of: helper, in: folder, environment: environment,
                stdin: String(decoding: request, as: UTF8.self))
            #expect(CLISecretCoreTests.holds(stored, server), "the core does not hold the helper's memory")
            let copied = CLISecretCoreTests.holds(stored, mark)
            #expect(!copied, "a copy of the secret is left in the memory of the store that \(way) the record")
        }
        let answered = try client.get(server) == DockerHelperClient.Login(username, secret)
        #expect(answered, "store under gdb did not keep the login")

        let got = try cores.core(["get"], of: helper, in: folder, environment: environment, stdin: server)
        #expect(CLISecretCoreTests.holds(got, server), "the core does not hold the helper's memory")
        // The username is read with the secret and written in the same answer, as a `String`:
        // the same search finds it, so it would find the secret had a copy been left.
        #expect(CLISecretCoreTests.holds(got, username), "the search did not find the username get wrote")
        let copied = CLISecretCoreTests.holds(got, mark)
        #expect(!copied, "a copy of the secret is left in the memory of get")
    }
}
