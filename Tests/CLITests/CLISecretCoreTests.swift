import Foundation
import KeyringTestSupport
import Testing

/// What a core of the tool holds once it has printed a password: a core taken at its exit
/// (gdb, caught at `exit_group`), in this debug build. The record is in the kernel store, so a
/// copy in the process is one the read made.
@Suite("CLI secrets in a core")
struct CLISecretCoreTests {
    /// The tool sets itself undumpable; root's gdb reads it anyway (CAP_SYS_PTRACE).
    static let canDump = geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb")

    /// The debug git helper, built beside the tool.
    static let helper = CLI.binary.deletingLastPathComponent().appendingPathComponent("git-credential-swift-keyring")

    /// The core of `swift-keyring ARGUMENTS…` (or of `binary`) at its exit.
    private func core(
        _ arguments: [String], of binary: URL = CLI.binary, in folder: URL, environment: [String: String], stdin: String? = nil
    ) throws -> Data {
        let core = folder.appendingPathComponent("core")
        // gdb waits for SIGCHLD, which the test runner's threads block and a child inherits blocked:
        // it starts with none blocked, as from a shell.
        var none = sigset_t()
        var kept = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &kept)
        defer { pthread_sigmask(SIG_SETMASK, &kept, nil) }
        let gdb = try Command.run(
            "gdb",
            [
                "-batch", "-q", "-ex", "catch syscall exit_group", "-ex", "run", "-ex", "gcore \(core.path)", "--args",
                binary.path,
            ]
                + arguments, environment: environment, stdin: stdin, timeout: 120)
        #expect(FileManager.default.fileExists(atPath: core.path), "gdb made no core: \(gdb.stderr)")
        return try Data(contentsOf: core)
    }

    @Test(
        "After get prints a password, the process's memory holds no copy of it; after get --json, it does",
        .enabled(if: canDump, "a core of the undumpable tool needs root's gdb"))
    func getLeavesNoCopy() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = try Sandbox().baseEnvironment()
        let service = TestStore.uniqueService("core")
        let store = ["--backend", "kernel", "--service", service]
        let password = "core-\(UUID().uuidString)"
        let set = try CLI.run(
            ["set", "work"] + store + ["--username", "alice", "--url", "https://example.com"], stdin: password,
            environment: environment)
        #expect(set.status == 0, "\(set.stderr)")
        defer { _ = try? CLI.run(["remove-all", "--yes"] + store, environment: environment) }
        let plain = try core(["get", "work"] + store, in: folder, environment: environment)
        // The core is the process's memory: the service name it was given is there.
        #expect(plain.range(of: Data(service.utf8)) != nil, "the core does not hold the process's memory")
        let copied = plain.range(of: Data(password.utf8)) != nil
        #expect(!copied, "a copy of the password is left in the memory of get")
        // The JSON answer is made of strings, which are freed unwiped: the same search finds them.
        let json = try core(["get", "work", "--json"] + store, in: folder, environment: environment)
        let jsonCopied = json.range(of: Data(password.utf8)) != nil
        #expect(jsonCopied, "the search did not find the password that get --json leaves")
    }

    @Test(
        "After set stores a password piped to it, the process's memory holds no copy of it",
        .enabled(if: canDump, "a core of the undumpable tool needs root's gdb"))
    func setLeavesNoCopy() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = try Sandbox().baseEnvironment()
        let service = TestStore.uniqueService("core-set")
        let store = ["--backend", "kernel", "--service", service]
        defer { _ = try? CLI.run(["remove-all", "--yes"] + store, environment: environment) }
        let password = "core-set-\(UUID().uuidString)"
        // gdb's standard input is the tool's: the password arrives through a pipe, as `set` reads it.
        let dump = try core(
            ["set", "work"] + store + ["--username", "alice", "--url", "https://example.com"], in: folder,
            environment: environment, stdin: password + "\n")
        #expect(dump.range(of: Data(service.utf8)) != nil, "the core does not hold the process's memory")
        let copied = dump.range(of: Data(password.utf8)) != nil
        #expect(!copied, "a copy of the password is left in the memory of set")
        let stored = try CLI.run(["get", "work"] + store, environment: environment).stdout == password + "\n"
        #expect(stored, "set under gdb did not store the password piped to it")
    }

    @Test(
        "After git's helper stores, answers and erases a credential, its memory holds no copy of the password or refresh token",
        .enabled(if: canDump, "a core of the undumpable helper needs root's gdb"))
    func gitHelperLeavesNoCopy() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The kernel store, as `get` above: the record is not in the process, so a copy there is one the helper made.
        let environment = try Sandbox().baseEnvironment().merging(["SWIFT_KEYRING_BACKEND": "kernel"]) { $1 }
        let host = "core-\(UUID().uuidString.prefix(8).lowercased()).example.com"
        let password = "git-core-\(UUID().uuidString)"
        let token = "refresh-core-\(UUID().uuidString)"
        let secrets = [("password", password), ("refresh token", token)]
        defer {
            _ = try? Command.run(
                Self.helper.path, ["erase"], environment: environment, stdin: "protocol=https\nhost=\(host)\n\n")
        }
        let storeInput =
            "protocol=https\nhost=\(host)\nusername=alice\npassword=\(password)\npassword_expiry_utc=4102444800\n"
            + "oauth_refresh_token=\(token)\n\n"
        // The first store makes the record; the second replaces it, as git's approve after each fill does.
        for way in ["makes", "replaces"] {
            let stored = try core(["store"], of: Self.helper, in: folder, environment: environment, stdin: storeInput)
            #expect(stored.range(of: Data(host.utf8)) != nil, "the core does not hold the helper's memory")
            for (name, secret) in secrets {
                let copied = stored.range(of: Data(secret.utf8)) != nil
                #expect(!copied, "a copy of the \(name) is left in the memory of the store that \(way) the record")
            }
        }
        // What git gets back, byte for byte, in the order the helper always wrote it.
        let expected =
            "username=alice\npassword=\(password)\npassword_expiry_utc=4102444800\noauth_refresh_token=\(token)\n"
        // Without a username the record is chosen among the host's; with one, it is read by its key.
        let ways = [("chosen", ""), ("by key", "username=alice\n")]
        for (way, asked) in ways {
            let answer = try Command.run(
                Self.helper.path, ["get"], environment: environment, stdin: "protocol=https\nhost=\(host)\n\(asked)\n")
            let answered = answer.status == 0 && answer.text == expected
            #expect(answered, "get (\(way)) does not give back what store was given: \(answer.stderr)")
        }
        for (way, asked) in ways {
            let answeredCore = try core(
                ["get"], of: Self.helper, in: folder, environment: environment,
                stdin: "protocol=https\nhost=\(host)\n\(asked)\n")
            #expect(answeredCore.range(of: Data(host.utf8)) != nil, "the core does not hold the helper's memory")
            for (name, secret) in secrets {
                let copied = answeredCore.range(of: Data(secret.utf8)) != nil
                #expect(!copied, "a copy of the \(name) is left in the memory of get (\(way))")
            }
        }

        // erase compares the password git sends (reject) with the stored one as bytes too.
        let erased = try core(
            ["erase"], of: Self.helper, in: folder, environment: environment,
            stdin: "protocol=https\nhost=\(host)\nusername=alice\npassword=\(password)\n\n")
        #expect(erased.range(of: Data(host.utf8)) != nil, "the core does not hold the helper's memory")
        for (name, secret) in secrets {
            let copied = erased.range(of: Data(secret.utf8)) != nil
            #expect(!copied, "a copy of the \(name) is left in the memory of erase")
        }
        let gone = try Command.run(Self.helper.path, ["get"], environment: environment, stdin: "protocol=https\nhost=\(host)\n\n")
        #expect(gone.status == 0 && gone.text.isEmpty, "erase under gdb did not remove the credential")

        // A password given in a url= line (a person typing; git itself sends password=) is
        // percent-decoded into a String, which is freed unwiped: the same search finds it.
        let fromURL = try core(
            ["store"], of: Self.helper, in: folder, environment: environment,
            stdin: "url=https://alice:\(password)@\(host)\n\n")
        let urlCopied = fromURL.range(of: Data(password.utf8)) != nil
        #expect(urlCopied, "the search did not find the password that a url= line leaves")
    }
}
