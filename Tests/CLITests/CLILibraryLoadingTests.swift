import Foundation
import KeyringTestSupport
import Testing

/// Which shared libraries a run of the tool loads, as the dynamic loader reports them
/// (`LD_DEBUG=libs` names every library whose initialiser runs, linked or dlopen'ed):
/// the desktop's libraries only for the Secret Service, libgcrypt only for crypto.
@Suite("CLI: library loading")
struct CLILibraryLoadingTests {
    /// The Secret Service's libraries, by soname.
    static let desktop = ["libsecret-1.so.0", "libgio-2.0.so.0", "libgobject-2.0.so.0", "libglib-2.0.so.0"]
    static let gcrypt = "libgcrypt.so.20"

    @Test(
        "--version, --help and a usage error load neither the desktop's libraries nor libgcrypt",
        arguments: [["--version"], ["--help"], ["frobnicate"]])
    func noLibrariesAtStart(arguments: [String]) throws {
        let sandbox = try Sandbox()
        let run = try LoadedLibraries.run(arguments, environment: sandbox.fileEnvironment())
        #expect(run.result.status == (arguments == ["frobnicate"] ? 64 : 0), "\(run.result.stdout)")
        for library in Self.desktop + [Self.gcrypt] {
            #expect(!run.loaded.contains(library), "\(arguments) loaded \(library): \(run.loaded.sorted())")
        }
    }

    @Test("set, get and list on the encrypted file with a key file never load the desktop's libraries")
    func fileStore() throws {
        let sandbox = try Sandbox()
        let environment = sandbox.fileEnvironment()
        let set = try LoadedLibraries.run(
            ["set", "work", "--username", "alice", "--url", "https://mail.example.com"], stdin: "pw-1\n",
            environment: environment)
        let get = try LoadedLibraries.run(["get", "work"], environment: environment)
        let list = try LoadedLibraries.run(["list"], environment: environment)
        #expect(set.result.status == 0 && get.result.stdout == "pw-1\n" && list.result.stdout.hasPrefix("work\talice"))
        for run in [set, get, list] {
            // The file is encrypted: libgcrypt is loaded, which proves the report lists dlopen'ed libraries.
            #expect(run.loaded.contains(Self.gcrypt), "\(run.loaded.sorted())")
            for library in Self.desktop {
                #expect(!run.loaded.contains(library), "\(library) was loaded: \(run.loaded.sorted())")
            }
        }
    }

    @Test("Store selection sees that no bus listens without loading GIO, and picks the file")
    func selectionWithoutBus() throws {
        let sandbox = try Sandbox()
        var environment = sandbox.fileEnvironment()
        environment["SWIFT_KEYRING_BACKEND"] = nil
        for address in ["unix:path=\(sandbox.folder.path)/no-bus", "unix:abstract=/swift-keyring/no-bus-\(UUID().uuidString)"] {
            environment["DBUS_SESSION_BUS_ADDRESS"] = address
            let run = try LoadedLibraries.run(["list"], environment: environment)
            #expect(run.result.status == 0, "\(run.result.stderr.suffix(2000))")
            for library in Self.desktop {
                #expect(!run.loaded.contains(library), "\(address): \(library) was loaded: \(run.loaded.sorted())")
            }
        }
    }

    @Test("No Secret Service call of the tool or the git helper loads libsecret, GIO, GObject or GLib")
    func secretServiceLoadsNoDesktopLibraries() throws {
        try #require(
            ProcessInfo.processInfo.environment["SWIFT_KEYRING_PRIVATE_SECRET_SERVICE"] == "1",
            "run the tests through Scripts/with-secret-service.sh or Scripts/with-keepassxc.sh (Scripts/test.sh does both)"
        )
        let sandbox = try Sandbox()
        let forced = sandbox.secretServiceEnvironment(["SWIFT_KEYRING_SERVICE": "cli.\(UUID().uuidString.lowercased())"])
        var auto = forced
        auto["SWIFT_KEYRING_BACKEND"] = nil
        let set = try LoadedLibraries.run(
            ["set", "work", "--username", "alice", "--url", "https://mail.example.com"], stdin: "pw-direct\n",
            environment: forced)
        try #require(set.result.status == 0, "\(set.result.stderr)")
        defer { _ = try? CLI.run(["remove-all", "--yes"], environment: forced) }
        let list = try LoadedLibraries.run(["list"], environment: auto)
        #expect(list.result.stdout.hasPrefix("work\talice"), "\(list.result.stderr.suffix(2000))")
        for run in [set, list] {
            for library in Self.desktop {
                #expect(!run.loaded.contains(library), "\(library) was loaded: \(run.loaded.sorted())")
            }
        }
        let json = try LoadedLibraries.run(["get", "work", "--json"], environment: forced)
        // Bools, so that a failure prints no password.
        let jsonHasPassword = json.result.stdout.contains("\"password\":\"pw-direct\"")
        #expect(jsonHasPassword, "get --json gave another password: \(json.result.stderr.suffix(2000))")
        #expect(!json.loaded.contains("libgio-2.0.so.0"), "\(json.loaded.sorted())")
        for environment in [forced, auto] {
            let get = try LoadedLibraries.run(["get", "work"], environment: environment)
            let samePassword = get.result.stdout == "pw-direct\n"
            #expect(samePassword, "get gave another password: \(get.result.stderr.suffix(2000))")
            // libgcrypt for the key exchange: the secret crossed the bus encrypted.
            #expect(get.loaded.contains(Self.gcrypt), "\(get.loaded.sorted())")
            for library in Self.desktop {
                #expect(!get.loaded.contains(library), "\(library) was loaded: \(get.loaded.sorted())")
            }
        }
        // No such record: the same client answers, exit 1.
        let missing = try LoadedLibraries.run(["get", "missing"], environment: forced)
        #expect(missing.result.status == 1, "\(missing.result.stderr.suffix(2000))")
        for library in Self.desktop {
            #expect(!missing.loaded.contains(library), "\(library) was loaded: \(missing.loaded.sorted())")
        }

        // git: a token the helper stored, filled without a username and with it.
        let host = "git-\(UUID().uuidString.lowercased()).example.com"
        let stored = try Command.run(
            GitClient.helper, ["store"], environment: forced,
            stdin: "protocol=https\nhost=\(host)\nusername=bob\npassword=tok-direct\n\n")
        try #require(stored.status == 0, "\(stored.stderr)")
        defer {
            _ = try? Command.run(GitClient.helper, ["erase"], environment: forced, stdin: "protocol=https\nhost=\(host)\n\n")
        }
        for fill in ["protocol=https\nhost=\(host)\n\n", "protocol=https\nhost=\(host)\nusername=bob\n\n"] {
            let get = try LoadedLibraries.run(["get"], stdin: fill, environment: auto, executable: GitClient.helper)
            let sameToken = get.result.stdout.contains("password=tok-direct\n")
            #expect(sameToken, "git's get gave another password: \(get.result.stderr.suffix(2000))")
            for library in Self.desktop {
                #expect(!get.loaded.contains(library), "\(library) was loaded: \(get.loaded.sorted())")
            }
        }
    }

    @Test("Without libsecret the file store and the Secret Service both work")
    func withoutLibsecret() throws {
        try #require(
            ProcessInfo.processInfo.environment["SWIFT_KEYRING_PRIVATE_SECRET_SERVICE"] == "1",
            "run the tests through Scripts/with-secret-service.sh or Scripts/with-keepassxc.sh (Scripts/test.sh does both)"
        )
        let hidden = try HiddenLibrary(soname: "libsecret-1.so.0")
        let sandbox = try Sandbox()
        let set = try hidden.run(
            ["set", "k", "--username", "u", "--url", "https://x.example"], stdin: "pw", environment: sandbox.fileEnvironment())
        #expect(set.status == 0, "\(set.stderr)")
        let get = try hidden.run(["get", "k"], environment: sandbox.fileEnvironment())
        #expect(get.status == 0 && get.stdout == "pw\n", "\(get.stderr)")

        let service = sandbox.secretServiceEnvironment(["SWIFT_KEYRING_SERVICE": "cli.\(UUID().uuidString.lowercased())"])
        let stored = try hidden.run(
            ["set", "k", "--username", "u", "--url", "https://x.example"], stdin: "pw-ss", environment: service)
        #expect(stored.status == 0, "\(stored.stderr)")
        let read = try hidden.run(["get", "k"], environment: service)
        #expect(read.status == 0 && read.stdout == "pw-ss\n", "\(read.stderr)")
        _ = try hidden.run(["remove-all", "--yes"], environment: service)
    }

    @Test("Without libgcrypt, --version runs and the file store fails naming libgcrypt.so.20")
    func withoutLibgcrypt() throws {
        let hidden = try HiddenLibrary(soname: Self.gcrypt)
        let sandbox = try Sandbox()
        let version = try hidden.run(["--version"], environment: sandbox.fileEnvironment())
        #expect(version.status == 0, "\(version.stderr)")
        let get = try hidden.run(["get", "k"], environment: sandbox.fileEnvironment())
        #expect(get.status == 69, "\(get.stderr)")
        #expect(get.stderr.contains("libgcrypt.so.20 could not be loaded"), "\(get.stderr)")
    }
}

/// One run of the tool under `LD_DEBUG=libs`, and the sonames of the libraries it loaded.
private struct LoadedLibraries {
    var result: CLIResult
    /// File names such as `libsecret-1.so.0` of every library whose initialiser ran.
    var loaded: Set<String>

    static func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String], executable: String = Command.tool
    ) throws -> Self {
        var environment = environment
        environment["LD_DEBUG"] = "libs"
        let run = try Command.run(executable, arguments, environment: environment, stdin: stdin)
        let result = CLIResult(stdout: run.text, stderr: run.stderr, status: run.status)
        // "   1234:\tcalling init: /lib/x86_64-linux-gnu/libsecret-1.so.0"
        var loaded = Set<String>()
        for line in result.stderr.split(separator: "\n") {
            guard let range = line.range(of: "calling init: ") else { continue }
            loaded.insert(String(line[range.upperBound...].split(separator: "/").last ?? ""))
        }
        // libc's own initialiser is always reported: without it, the loader printed nothing and the test proves nothing.
        try #require(loaded.contains("libc.so.6"), "LD_DEBUG gave no report: \(result.stderr.prefix(2000))")
        return Self(result: result, loaded: loaded)
    }
}

/// Runs the tool in a mount namespace of its own where one library's file is /dev/null,
/// as on a machine without it; the rest of the system is untouched.
private struct HiddenLibrary {
    /// The library's real file (links resolved), which the loader would open.
    let file: String

    /// Finds the library and checks that a namespace can be made here: a machine that
    /// cannot (CI runs as root; elsewhere user namespaces must be allowed) fails the test.
    init(soname: String) throws {
        let folders = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib64", "/lib"]
        let found = folders.map { $0 + "/" + soname }.first { FileManager.default.fileExists(atPath: $0) }
        file = try #require(found.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }, "\(soname) is not installed")
        let probe = try Self.hidden(file, ["/bin/true"], stdin: nil, environment: [:])
        try #require(probe.status == 0, "hiding \(soname) needs a mount namespace (unshare -rm): \(probe.stderr)")
    }

    func run(_ arguments: [String], stdin: String? = nil, environment: [String: String]) throws -> CLIResult {
        let result = try Self.hidden(file, [CLI.binary.path] + arguments, stdin: stdin, environment: environment)
        return CLIResult(stdout: result.text, stderr: result.stderr, status: result.status)
    }

    private static func hidden(_ file: String, _ command: [String], stdin: String?, environment: [String: String]) throws
        -> CommandResult
    {
        // Binding /dev/null over the library makes dlopen fail with "file too short".
        let script = #"mount --bind /dev/null "$1" || exit 99; shift; exec "$@""#
        var environment = environment
        environment["PATH"] = "/usr/bin:/bin"
        return try Command.run(
            "/usr/bin/unshare", ["-rm", "/bin/sh", "-c", script, "sh", file] + command, environment: environment,
            stdin: stdin, timeout: 30)
    }
}
