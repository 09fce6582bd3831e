import Foundation
import KeyringTestSupport
import Testing

/// The built `docker-credential-swift-keyring`, run as docker, podman and skopeo run a
/// credential helper: one action as the only argument (store options before it, when a
/// wrapper adds them), the request on standard input, the answer on standard output.
struct DockerHelperClient {
    /// The helper's folder: the one `swift build --build-tests` put the tool in, put on PATH for the real clients.
    static let folder = URL(fileURLWithPath: Command.tool).deletingLastPathComponent()
    static let helper = folder.appendingPathComponent("docker-credential-swift-keyring").path

    /// The store's environment (`SWIFT_KEYRING_*`, the bus).
    var environment: [String: String]
    /// The program run: this helper, or the reference `docker-credential-secretservice`.
    var program: String = DockerHelperClient.helper
    /// Words before the action (store options).
    var options: [String] = []

    /// One run of `action` with `input` on standard input.
    func run(_ action: String, arguments: [String] = [], input: String? = nil, inputBytes: Data? = nil) throws
        -> CommandResult
    {
        try Command.run(program, options + [action] + arguments, environment: environment, stdin: input, stdinBytes: inputBytes)
    }

    /// `store` of a login; the result.
    @discardableResult
    func store(_ server: String, _ username: String, _ secret: String) throws -> CommandResult {
        let object = try JSONSerialization.data(withJSONObject: ["ServerURL": server, "Username": username, "Secret": secret])
        return try run("store", inputBytes: object)
    }

    /// A login as `get` answers it.
    struct Login: Equatable, CustomStringConvertible {
        var username: String
        var secret: String
        init(_ username: String, _ secret: String) {
            self.username = username
            self.secret = secret
        }
        // The secret is a test's own throwaway value; its length only, as the library prints secrets.
        var description: String { "\(username) / <\(secret.utf8.count) bytes>" }
    }

    /// `get` of `server`: the username and secret of the answer, or `nil` when it failed or
    /// answered for another server than `server` without the white space around it.
    func get(_ server: String) throws -> Login? {
        let result = try run("get", input: server)
        guard result.status == 0,
            let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: String],
            object["ServerURL"] == server.trimmingCharacters(in: .whitespacesAndNewlines),
            let username = object["Username"], let secret = object["Secret"]
        else { return nil }
        return Login(username, secret)
    }

    /// `list`, decoded: server → username.
    func list() throws -> [String: String] {
        let result = try run("list")
        try #require(result.status == 0, "list failed: \(result.text)")
        return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: String], "list: \(result.text)")
    }

    /// A server name no other test uses, in the form registries take (`host:port`).
    static func uniqueServer() -> String { "r\(UUID().uuidString.prefix(8).lowercased()).example.com:5000" }
}

/// The stores the docker helper is driven on, chosen as the tool chooses: by `SWIFT_KEYRING_*`.
enum DockerHelperStore: String, CaseIterable, CustomStringConvertible, Sendable {
    case file
    case secretService

    var description: String { rawValue }

    /// The store's environment, as the git helper's tests make it; the Secret Service one fails,
    /// never skips, outside with-secret-service.sh.
    func environment(_ sandbox: Sandbox) throws -> [String: String] {
        try (self == .file ? GitHelperStore.file : GitHelperStore.secretService).environment(sandbox)
    }
}
