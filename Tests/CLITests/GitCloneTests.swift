import Foundation
import KeyringTestSupport
import Testing

/// A clone over HTTP from a loopback server that asks for Basic authentication, with the
/// helper as git's only credential helper, on the encrypted file.
@Suite("git clone through the helper")
struct GitCloneTests {
    /// A bare repository with one commit, ready for git's dumb HTTP protocol.
    static func makeRepository(in folder: URL, git: GitClient) throws -> URL {
        let remote = folder.appendingPathComponent("served/repo.git")
        let work = folder.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        for arguments in [
            ["init", "--bare", "--initial-branch=main", remote.path], ["init", "--initial-branch=main", work.path],
        ] {
            try #require(try git.run(arguments).status == 0)
        }
        try Data("hello from the served repository\n".utf8).write(to: work.appendingPathComponent("README"))
        for arguments in [["add", "README"], ["commit", "-m", "first"], ["push", remote.path, "main"]] {
            let result = try git.run(arguments, in: work)
            try #require(result.status == 0, "git \(arguments) failed: \(result.stderr)")
        }
        try #require(try git.run(["update-server-info"], in: remote).status == 0)
        return remote
    }

    @Test("No credential: the clone fails; approved: it succeeds; a wrong one: it fails and git's reject erases it")
    func clone() throws {
        let sandbox = try Sandbox()
        let git = GitClient(sandbox: sandbox, storeEnvironment: sandbox.fileEnvironment())
        _ = try Self.makeRepository(in: sandbox.folder, git: git)
        let server = try DumbHTTPServer(
            serving: sandbox.folder.appendingPathComponent("served"), username: "gituser", password: "right-pw")
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/repo.git"
        let attributes = ["protocol=http", "host=127.0.0.1:\(server.port)", "username=gituser"]

        let first = try git.run(["clone", url, sandbox.folder.appendingPathComponent("clone-1").path])
        #expect(first.status != 0, "cloned without a credential")
        #expect(first.stderr.contains("could not read Username"), "\(first.stderr)")

        #expect(try git.credential("approve", attributes + ["password=right-pw"]).status == 0)
        let second = try git.run(["clone", url, sandbox.folder.appendingPathComponent("clone-2").path])
        #expect(second.status == 0, "the clone with the stored credential failed: \(second.stderr)")
        let readme = try String(contentsOf: sandbox.folder.appendingPathComponent("clone-2/README"), encoding: .utf8)
        #expect(readme == "hello from the served repository\n")
        let right = "Basic " + Data("gituser:right-pw".utf8).base64EncodedString()
        #expect(server.receivedAuthorizations.contains(right))

        #expect(try git.credential("approve", attributes + ["password=wrong-pw"]).status == 0)
        let third = try git.run(["clone", url, sandbox.folder.appendingPathComponent("clone-3").path])
        #expect(third.status != 0, "cloned with a wrong credential")
        let list = try CLI.run(["list", "--service", "git-credential"], environment: git.environment)
        #expect(list.status == 0)
        #expect(list.stdout.isEmpty, "git's reject left the wrong credential: \(list.stdout)")
    }
}
