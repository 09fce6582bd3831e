import Foundation
import KeyringTestSupport
import Testing

/// What the tool loads and prints before it does any keyring work: a short command
/// (`get`, `--version`) must not pay for libraries only the etcd store uses.
@Suite("CLI: start")
struct CLIStartTests {
    @Test("--version prints the version alone on standard output and exits 0")
    func version() throws {
        let result = try CLI.run(["--version"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 0)
        #expect(result.stdout == "0.1.0\n")
        #expect(result.stderr.isEmpty)
    }

    @Test("The tool starts without libcurl and its libraries: only an etcd store loads it")
    func noCurlAtStart() throws {
        // The dynamic loader lists what the binary needs at start, and exits before main.
        let result = try CLI.run([], environment: ["LD_TRACE_LOADED_OBJECTS": "1", "PATH": "/usr/bin:/bin"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("libc.so.6"), "the loader's list is not there: \(result.allOutput)")
        for library in ["libcurl", "libssl", "libgnutls", "libkrb5", "libldap", "libnghttp2"] {
            #expect(!result.stdout.contains(library), "\(library) is loaded at start:\n\(result.stdout)")
        }
    }

    @Test(
        "Without libcurl the tool still runs; only an etcd command fails, naming libcurl",
        WithoutCurl.namespaces.trait()
    )
    func runsWithoutCurl() throws {
        try WithoutCurl.namespaces.require()
        let memory = try WithoutCurl.run(["get", "absent"], environment: ["SWIFT_KEYRING_BACKEND": "memory"])
        #expect(memory.status == 1, "the memory store's 'no such record': \(memory.allOutput)")
        #expect(memory.stderr.contains("absent"))

        let etcd = try WithoutCurl.run(
            ["get", "k", "--backend", "etcd", "--etcd-endpoints", "http://127.0.0.1:9"], environment: [:])
        #expect(etcd.status == 69)
        #expect(etcd.stderr.contains("libcurl could not be loaded"), "\(etcd.allOutput)")
    }
}

/// Runs the tool in a mount namespace of its own where libcurl's file is empty, as on
/// a machine without libcurl: the rest of the system is untouched.
private enum WithoutCurl {
    /// The file the loader would open for libcurl.so.4 (symbolic links resolved), if there is one.
    static let library: String? = {
        for folder in ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib64", "/lib"] {
            let path = folder + "/libcurl.so.4"
            if FileManager.default.fileExists(atPath: path) { return URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
        }
        return nil
    }()

    /// Whether this machine lets an unprivileged process hide the file (some forbid user namespaces).
    static let namespaces = MachineNeed(
        isMet: FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
            && (try? hidden(["/bin/true"], environment: [:]).status) == 0,
        remedy: "install unshare (util-linux) and allow user and mount namespaces: `unshare -rm true` must succeed")

    static func run(_ arguments: [String], environment: [String: String]) throws -> CLIResult {
        let result = try hidden([CLI.binary.path] + arguments, environment: environment)
        return CLIResult(stdout: result.text, stderr: result.stderr, status: result.status)
    }

    private static func hidden(_ command: [String], environment: [String: String]) throws -> CommandResult {
        // Binding /dev/null over the library makes dlopen fail with "file too short".
        let script = #"[ -z "$1" ] || mount --bind /dev/null "$1" || exit 99; shift; exec "$@""#
        var environment = environment
        environment["PATH"] = "/usr/bin:/bin"
        return try Command.run(
            "/usr/bin/unshare", ["-rm", "/bin/sh", "-c", script, "sh", library ?? ""] + command,
            environment: environment, timeout: 30)
    }
}
