import Foundation
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
        #expect(result.stdout.contains("libsecret-1.so"), "the loader's list is not there: \(result.allOutput)")
        for library in ["libcurl", "libssl", "libgnutls", "libkrb5", "libldap", "libnghttp2"] {
            #expect(!result.stdout.contains(library), "\(library) is loaded at start:\n\(result.stdout)")
        }
    }
}
