import Foundation
import KeyringTestSupport
import Testing

/// What a core of the tool holds once it has printed a password: a core taken at its exit
/// (gdb, caught at `exit_group`), in this debug build. The record is in the kernel store, so a
/// copy in the process is one the read made.
@Suite("CLI secrets in a core")
struct CLISecretCoreTests {
    /// The tool sets itself undumpable; root's gdb reads it anyway (CAP_SYS_PTRACE).
    static let canDump = MachineNeed(
        isMet: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb"),
        remedy: "run the tests as root (as CI does) with gdb installed: a core of the undumpable tool needs root's gdb")

    /// The debug git helper, built beside the tool.
    static let helper = CLI.binary.deletingLastPathComponent().appendingPathComponent("git-credential-swift-keyring")

    /// gdb's command line that runs `binary ARGUMENTS…` and writes its core to `core` at its exit.
    private static func gdbArguments(_ arguments: [String], of binary: URL, core: URL) -> [String] {
        ["-batch", "-q", "-ex", "catch syscall exit_group", "-ex", "run", "-ex", "gcore \(core.path)", "--args", binary.path]
            + arguments
    }

    /// Whether `core` holds `text`'s bytes anywhere.
    static func holds(_ core: Data, _ text: String) -> Bool {
        core.range(of: Data(text.utf8)) != nil
    }

    /// The core of `swift-keyring ARGUMENTS…` (or of `binary`) at its exit.
    func core(
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
            "gdb", Self.gdbArguments(arguments, of: binary, core: core), environment: environment, stdin: stdin, timeout: 120)
        #expect(FileManager.default.fileExists(atPath: core.path), "gdb made no core: \(gdb.stderr)")
        return try Data(contentsOf: core)
    }

    @Test(
        "After get prints a password, or the whole record as JSON, the process's memory holds no copy of it",
        canDump.trait())
    func getLeavesNoCopy() throws {
        try Self.canDump.require()
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = try Sandbox().baseEnvironment()
        let service = TestStore.uniqueService("core")
        let store = ["--backend", "kernel", "--service", service]
        let password = "core-\(UUID().uuidString)"
        let username = "alice-\(UUID().uuidString)"
        let set = try CLI.run(
            ["set", "work"] + store + ["--username", username, "--url", "https://example.com"], stdin: password,
            environment: environment)
        #expect(set.status == 0, "\(set.stderr)")
        defer { _ = try? CLI.run(["remove-all", "--yes"] + store, environment: environment) }
        let plain = try core(["get", "work"] + store, in: folder, environment: environment)
        // The core is the process's memory: the service name it was given is there.
        #expect(Self.holds(plain, service), "the core does not hold the process's memory")
        let copied = Self.holds(plain, password)
        #expect(!copied, "a copy of the password is left in the memory of get")
        let json = try core(["get", "work", "--json"] + store, in: folder, environment: environment)
        // The username is read with the password and printed in the same line, but made a `String`:
        // the same search finds it, so it would find the password had a copy been left.
        #expect(Self.holds(json, username), "the search did not find the username get --json printed")
        let jsonCopied = Self.holds(json, password)
        #expect(!jsonCopied, "a copy of the password is left in the memory of get --json")
    }

    @Test(
        "After the tool reads and removes a record git's helper stored, its memory holds no copy of the password or refresh token",
        canDump.trait())
    func toolLeavesNoCopyOfGitRecord() throws {
        try Self.canDump.require()
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = try Sandbox().baseEnvironment().merging(["SWIFT_KEYRING_BACKEND": "kernel"]) { $1 }
        let host = "core-\(UUID().uuidString.prefix(8).lowercased()).example.com"
        let password = "git-tool-\(UUID().uuidString)"
        let token = "refresh-tool-\(UUID().uuidString)"
        defer {
            _ = try? Command.run(
                Self.helper.path, ["erase"], environment: environment, stdin: "protocol=https\nhost=\(host)\n\n")
        }
        let stored = try Command.run(
            Self.helper.path, ["store"], environment: environment,
            stdin: "protocol=https\nhost=\(host)\nusername=alice\npassword=\(password)\noauth_refresh_token=\(token)\n\n")
        try #require(stored.status == 0, "the helper did not store the credential: \(stored.stderr)")
        // The helper's record: its key names the remote, its password holds git's password and refresh token.
        let record = ["https://alice@\(host)", "--service", "git-credential"]
        let printed = try CLI.run(["get"] + record, environment: environment).stdout
        let whole = printed == "\(password)\noauth_refresh_token=\(token)\n"
        #expect(whole, "the tool's get does not print the record the helper stored")
        for command in ["get", "remove"] {
            let dump = try core([command] + record, in: folder, environment: environment)
            #expect(Self.holds(dump, host), "the core does not hold the process's memory")
            for (name, secret) in [("password", password), ("refresh token", token)] {
                let copied = Self.holds(dump, secret)
                #expect(!copied, "a copy of the \(name) is left in the memory of the tool's \(command)")
            }
        }
        let gone = try CLI.run(["get"] + record, environment: environment)
        #expect(gone.status == 1, "remove under gdb did not remove the record")
    }

    @Test(
        "After set stores a password typed at a terminal, the process's memory holds no copy of it",
        canDump.trait())
    func setOnTerminalLeavesNoCopy() throws {
        try Self.canDump.require()
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = try Sandbox().baseEnvironment()
        let service = TestStore.uniqueService("core-tty")
        let store = ["--backend", "kernel", "--service", service]
        defer { _ = try? CLI.run(["remove-all", "--yes"] + store, environment: environment) }
        let password = "core-tty-\(UUID().uuidString)"
        let core = folder.appendingPathComponent("core")
        // gdb and the tool share the terminal: the tool asks twice, with echo off, as for a person.
        let arguments = ["set", "work"] + store + ["--username", "alice", "--url", "https://example.com"]
        let terminal = try TerminalSession(
            Self.gdbArguments(arguments, of: CLI.binary, core: core), environment: environment,
            executable: URL(fileURLWithPath: "/usr/bin/gdb"))
        try #require(terminal.waitFor("Password: ") && terminal.waitForEchoOff(), "no password prompt")
        terminal.type(Array(password.utf8) + [0x0A])
        try #require(terminal.waitFor("Repeat password: ") && terminal.waitForEchoOff(), "no second prompt")
        terminal.type(Array(password.utf8) + [0x0A])
        _ = terminal.exitStatus()
        let dump = try Data(contentsOf: core)
        #expect(Self.holds(dump, service), "the core does not hold the process's memory")
        let copied = Self.holds(dump, password)
        #expect(!copied, "a copy of the password typed is left in the memory of set")
        let stored = try CLI.run(["get", "work"] + store, environment: environment).stdout == password + "\n"
        #expect(stored, "set under gdb did not store the password typed")
    }

    @Test(
        "After set stores a password piped to it, the process's memory holds no copy of it",
        canDump.trait())
    func setLeavesNoCopy() throws {
        try Self.canDump.require()
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
        canDump.trait())
    func gitHelperLeavesNoCopy() throws {
        try Self.canDump.require()
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
        // percent-decoded into a wiped buffer. The username beside it is decoded the same way
        // into a `String`, which is freed unwiped: the search finds that one. Both hold an
        // escape, so neither decoded form is in the input itself.
        let username = "user-\(UUID().uuidString)"
        let urlPassword = "git-url-\(UUID().uuidString)"
        let fromURL = try core(
            ["store"], of: Self.helper, in: folder, environment: environment,
            stdin: "url=https://\(username)%21:\(urlPassword)%21@\(host)\n\n")
        #expect(Self.holds(fromURL, username + "!"), "the search did not find the username decoded from the url= line")
        let urlCopied = Self.holds(fromURL, urlPassword + "!")
        #expect(!urlCopied, "a copy of the password in a url= line is left in the memory of store")
        let fromURLAnswer = try Command.run(
            Self.helper.path, ["get"], environment: environment,
            stdin: "protocol=https\nhost=\(host)\nusername=\(username)!\n\n")
        let urlStored = fromURLAnswer.text == "username=\(username)!\npassword=\(urlPassword)!\n"
        #expect(urlStored, "store under gdb did not keep the password of the url= line: \(fromURLAnswer.stderr)")
        _ = try? Command.run(
            Self.helper.path, ["erase"], environment: environment,
            stdin: "protocol=https\nhost=\(host)\nusername=\(username)!\n\n")
    }
}
