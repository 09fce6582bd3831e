import Foundation
import KeyringTestSupport
import Testing

/// The real clients against a real registry (Scripts/with-registry.sh): `podman login` with a
/// `credHelpers` entry naming the helper stores the login through it, `skopeo` is let in with it,
/// and `podman logout` erases it; on gnome-keyring and on the encrypted file with no session bus.
/// Serialized: both cases log in to the one registry of the run.
@Suite("docker credential helper with podman and skopeo", .serialized)
struct DockerRegistryTests {
    /// The registry of the run; fails, never skips, outside with-registry.sh.
    struct Registry {
        var server: String
        var user: String
        var password: String

        init() throws {
            let environment = ProcessInfo.processInfo.environment
            server = try #require(
                environment["SWIFT_KEYRING_TEST_REGISTRY"],
                "run the tests through Scripts/with-registry.sh (Scripts/test.sh does)")
            user = try #require(environment["SWIFT_KEYRING_TEST_REGISTRY_USER"])
            password = try #require(environment["SWIFT_KEYRING_TEST_REGISTRY_PASSWORD"])
        }
    }

    /// podman and skopeo in the sandbox: their storage, configuration and runtime folders all under it
    /// (nothing of the machine's own), the helper's folder first on PATH, `auth.json` naming the helper.
    struct Clients {
        var environment: [String: String]
        var authFile: URL
        var folder: URL
        /// podman's run root: refused past 50 characters, so a short folder of its own under /tmp.
        var runRoot: URL

        init(sandbox: Sandbox, storeEnvironment: [String: String], server: String) throws {
            folder = sandbox.folder.appendingPathComponent("containers")
            let runtime = folder.appendingPathComponent("run")
            try FileManager.default.createDirectory(
                at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            var environment = storeEnvironment
            environment["PATH"] = DockerHelperClient.folder.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["HOME"] = sandbox.folder.path
            environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
            environment["XDG_DATA_HOME"] = folder.appendingPathComponent("data").path
            if environment["XDG_RUNTIME_DIR"] == nil { environment["XDG_RUNTIME_DIR"] = runtime.path }
            self.environment = environment
            runRoot = URL(fileURLWithPath: "/tmp/skr-podman-\(UUID().uuidString.prefix(8))")
            authFile = folder.appendingPathComponent("auth.json")
            try Data("{\"credHelpers\":{\"\(server)\":\"swift-keyring\"}}\n".utf8).write(to: authFile)
        }

        /// podman with a throwaway storage root, so a run as root touches none of the machine's.
        func podman(_ arguments: [String], stdin: String? = nil) throws -> CommandResult {
            let storage = [
                "--root", folder.appendingPathComponent("storage").path, "--runroot", runRoot.path, "--storage-driver", "vfs",
            ]
            return try Command.run("podman", storage + arguments, environment: environment, stdin: stdin, timeout: 120)
        }

        /// `skopeo list-tags` of a repository the registry does not have, with `authFile`.
        func listTags(_ server: String, authFile: URL) throws -> CommandResult {
            try Command.run(
                "skopeo",
                ["list-tags", "--authfile", authFile.path, "--tls-verify=false", "docker://\(server)/no-such/repository"],
                environment: environment, timeout: 120)
        }
    }

    /// Runs `body` with the run's registry, the clients and the helper on `store` in a new sandbox;
    /// the login is erased and podman's run root removed afterwards.
    static func withClients(_ store: DockerHelperStore, _ body: (Registry, Clients, DockerHelperClient) throws -> Void) throws {
        let registry = try Registry()
        let sandbox = try Sandbox()
        let storeEnvironment = try store.environment(sandbox)
        if store == .file { #expect(storeEnvironment["DBUS_SESSION_BUS_ADDRESS"] == nil, "the file case has no session bus") }
        let clients = try Clients(sandbox: sandbox, storeEnvironment: storeEnvironment, server: registry.server)
        let helper = DockerHelperClient(environment: storeEnvironment)
        defer {
            _ = try? helper.run("erase", input: registry.server)
            try? FileManager.default.removeItem(at: clients.runRoot)
        }
        try body(registry, clients, helper)
    }

    @Test(
        "podman login stores through the helper, skopeo is let in (404, not 401), podman logout erases",
        arguments: DockerHelperStore.allCases)
    func loginUseLogout(store: DockerHelperStore) throws {
        try Self.withClients(store) { registry, clients, helper in try Self.loginUseLogout(registry, clients, helper) }
    }

    private static func loginUseLogout(_ registry: Registry, _ clients: Clients, _ helper: DockerHelperClient) throws {
        let noLogin = clients.folder.appendingPathComponent("empty.json")
        try Data("{}\n".utf8).write(to: noLogin)

        // The control: without the login the registry refuses.
        let refused = try clients.listTags(registry.server, authFile: noLogin)
        #expect(refused.status != 0 && refused.stderr.contains("unauthorized"), "\(refused.stderr)")

        let login = try clients.podman(
            [
                "login", "--authfile", clients.authFile.path, "--tls-verify=false", "-u", registry.user, "--password-stdin",
                registry.server,
            ],
            stdin: registry.password)
        #expect(login.status == 0, "podman login: \(login.stderr)")
        let authText = try String(contentsOf: clients.authFile, encoding: .utf8)
        #expect(!authText.contains(registry.password) && !authText.contains("\"auth\""), "auth.json holds the login")
        let stored = try helper.get(registry.server)
        #expect(stored == DockerHelperClient.Login(registry.user, registry.password), "the helper does not hold the login")

        let letIn = try clients.listTags(registry.server, authFile: clients.authFile)
        #expect(letIn.status != 0 && letIn.stderr.contains("404"), "skopeo was not let in: \(letIn.stderr)")
        #expect(!letIn.stderr.contains("unauthorized"))

        let logout = try clients.podman(["logout", "--authfile", clients.authFile.path, registry.server])
        #expect(logout.status == 0, "podman logout: \(logout.stderr)")
        #expect(try helper.get(registry.server) == nil, "podman logout left the login")
        let after = try clients.listTags(registry.server, authFile: clients.authFile)
        #expect(after.status != 0 && after.stderr.contains("unauthorized"), "\(after.stderr)")
    }

    @Test(
        "A plain podman login (base64 in auth.json) moved in by import --rewrite lets skopeo in through the helper",
        arguments: DockerHelperStore.allCases)
    func importedLogin(store: DockerHelperStore) throws {
        try Self.withClients(store) { registry, clients, helper in try Self.importedLogin(registry, clients, helper) }
    }

    private static func importedLogin(_ registry: Registry, _ clients: Clients, _ helper: DockerHelperClient) throws {
        // podman's own file store: the password base64-encoded in auths.
        let plain = clients.folder.appendingPathComponent("plain.json")
        try Data("{}\n".utf8).write(to: plain)
        let login = try clients.podman(
            ["login", "--authfile", plain.path, "--tls-verify=false", "-u", registry.user, "--password-stdin", registry.server],
            stdin: registry.password)
        try #require(login.status == 0, "podman login: \(login.stderr)")
        #expect(try String(contentsOf: plain, encoding: .utf8).contains("\"auth\""))

        let imported = try helper.run("import", arguments: ["--rewrite", plain.path])
        #expect(imported.status == 0, "\(imported.text)")
        let rewritten = try String(contentsOf: plain, encoding: .utf8)
        #expect(!rewritten.contains("\"auth\"") && rewritten.contains("\"credHelpers\""))
        let letIn = try clients.listTags(registry.server, authFile: plain)
        #expect(letIn.status != 0 && letIn.stderr.contains("404"), "skopeo was not let in: \(letIn.stderr)")
        // The control: the login is the helper's now; erased, skopeo is refused.
        _ = try helper.run("erase", input: registry.server)
        let refused = try clients.listTags(registry.server, authFile: plain)
        #expect(refused.stderr.contains("unauthorized"), "\(refused.stderr)")
    }
}
