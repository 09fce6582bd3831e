import Foundation
import KeyringTestSupport
import Testing

/// The tool where the kernel refuses its key calls, under a real seccomp filter
/// (`Tests/KeyCallFilter`): a container with Docker's default profile (`add_key`, `keyctl` and
/// `request_key` fail with EPERM), and a kernel before Linux 5.1 (no `KEYCTL_MOVE`). The user
/// reads why and what to use instead; nothing is written, and what needs no kernel keyring works.
@Suite(
    "CLI where the kernel refuses the key calls (seccomp)",
    .enabled(if: KeyCallFilter.canRun, "needs cc to build the seccomp launcher (CI=true fails instead)"))
struct CLIKeyCallsRefusedTests {
    /// Every file under `folder`, with its size and modification time: "nothing written" is this, unchanged.
    private func snapshot(_ folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.fileSizeKey, .contentModificationDateKey])
        return (enumerator?.allObjects as? [URL] ?? []).map { url in
            let values = try? url.resourceValues(forKeys: [.fileSizeKey, .contentModificationDateKey])
            return "\(url.path) \(values?.fileSize ?? -1) \(values?.contentModificationDate?.timeIntervalSince1970 ?? 0)"
        }
        .sorted()
    }

    @Test("The filter is live: the launcher's own probe sees the calls refused under it, and answered without it")
    func filterIsLive() throws {
        let filter = try KeyCallFilter.binary()
        let free = try Command.run(filter, ["probe"], environment: [:])
        #expect(free.text == "add_key: ok\nkeyctl(KEYCTL_MOVE): ok\n", "\(free.text)\(free.stderr)")
        let refused = try KeyCallFilter.run(.refuse, filter, ["probe"], environment: [:])
        #expect(refused.text == "add_key: EPERM\nkeyctl(KEYCTL_MOVE): EPERM\n", "\(refused.text)\(refused.stderr)")
        let noMove = try KeyCallFilter.run(.noMove, filter, ["probe"], environment: [:])
        #expect(noMove.text == "add_key: ok\nkeyctl(KEYCTL_MOVE): EOPNOTSUPP\n", "\(noMove.text)\(noMove.stderr)")
    }

    @Test("--backend kernel: set, get and list exit 69 naming seccomp and --backend file; nothing is written anywhere")
    func kernelStoreRefused() throws {
        let sandbox = try Sandbox()
        let environment = sandbox.baseEnvironment()
        let store = ["--backend", "kernel", "--service", TestStore.uniqueService("cli-refused")]
        let account = ["--username", "alice", "--url", "https://github.com"]
        // Without the filter, the same commands work: a record to read, and to fail to overwrite.
        let kept = "tok-kept-\(UUID().uuidString)"
        let set = try CLI.run(["set", "github"] + store + account, stdin: kept, environment: environment)
        #expect(set.status == 0, "\(set.stderr)")
        defer { _ = try? CLI.run(["remove-all", "--yes"] + store, environment: environment) }
        #expect(try CLI.run(["list"] + store, environment: environment).stdout == "github\talice\thttps://github.com\t-\n")

        let files = snapshot(sandbox.folder)
        let replacement = "tok-refused-\(UUID().uuidString)"
        for command in [["set", "github"] + account, ["get", "github"], ["list"], ["set", "new-key"] + account] {
            let refused = try KeyCallFilter.runTool(.refuse, command + store, environment: environment, stdin: replacement)
            #expect(refused.status == 69, "\(command[0]): \(refused.stderr)")
            #expect(
                refused.stderr.contains("the kernel refused ") && refused.stderr.contains("seccomp")
                    && refused.stderr.contains("Docker's default blocks add_key and keyctl"),
                "\(command[0]) does not say the calls are refused: \(refused.stderr)")
            #expect(refused.stderr.contains("--backend file"), "\(command[0]) does not name the fallback: \(refused.stderr)")
            #expect(refused.stdout.isEmpty, "\(command[0]) printed something")
            #expect(!refused.allOutput.contains(kept) && !refused.allOutput.contains(replacement), "a password was printed")
        }
        #expect(snapshot(sandbox.folder) == files, "a refused command wrote a file")
        let get = try CLI.run(["get", "github"] + store, environment: environment)
        #expect(get.status == 0, "\(get.stderr)")
        let unchanged = get.stdout == kept + "\n"
        #expect(unchanged, "the record github changed under the refused set")
        #expect(try CLI.run(["get", "new-key"] + store, environment: environment).status == 1)
        #expect(try CLI.run(["list"] + store, environment: environment).stdout == "github\talice\thttps://github.com\t-\n")
    }

    @Test("unlock fails naming seccomp and the fallbacks; get with the passphrase, and the git helper, still work")
    func unlockRefused() throws {
        let password = "record-pw-\(UUID().uuidString)"
        let (sandbox, noPassphrase) = try Sandbox.fileWithRecord(password)

        let unlock = try KeyCallFilter.runTool(
            .refuse, ["unlock", "--backend", "file"], environment: noPassphrase, stdin: sandbox.passphrase + "\n")
        defer { _ = try? CLI.run(["lock"], environment: noPassphrase) }
        #expect(unlock.status == 69, "\(unlock.stderr)")
        #expect(
            unlock.stderr.contains("the kernel refused ") && unlock.stderr.contains("seccomp"),
            "unlock does not say the calls are refused: \(unlock.stderr)")
        #expect(
            unlock.stderr.contains("SWIFT_KEYRING_PASSPHRASE_FILE") && unlock.stderr.contains("SWIFT_KEYRING_KEY_FILE"),
            "unlock does not name the fallbacks: \(unlock.stderr)")
        #expect(!unlock.allOutput.contains(sandbox.passphrase), "the passphrase was printed")
        // Said before a passphrase is asked for: with none to read, the answer is the same.
        let unasked = try KeyCallFilter.runTool(.refuse, ["unlock", "--backend", "file"], environment: noPassphrase)
        #expect(unasked.status == 69 && unasked.stderr == unlock.stderr, "\(unasked.stderr)")
        // Nothing was kept: a process of the same session, free of the filter, still needs the passphrase.
        #expect(try CLI.run(["get", "gh"], environment: noPassphrase).status == 77)

        // The cache is simply out of reach: the passphrase from the environment opens the file as before.
        let get = try KeyCallFilter.runTool(.refuse, ["get", "gh"], environment: sandbox.passphraseEnvironment())
        #expect(get.status == 0, "\(get.stderr)")
        let readBack = get.stdout == password + "\n"
        #expect(readBack, "the record gh read under the filter differs")

        let helper = GitClient.helper
        let gitPassword = "git-pw-\(UUID().uuidString)"
        let stored = try KeyCallFilter.run(
            .refuse, helper, ["store"], environment: sandbox.passphraseEnvironment(),
            stdin: "protocol=https\nhost=example.com\nusername=bob\npassword=\(gitPassword)\n\n")
        #expect(stored.status == 0, "the helper could not store under the filter: \(stored.stderr)")
        let fill = try KeyCallFilter.run(
            .refuse, helper, ["get"], environment: sandbox.passphraseEnvironment(), stdin: "protocol=https\nhost=example.com\n\n")
        let answered = fill.status == 0 && fill.text.contains("username=bob\npassword=\(gitPassword)\n")
        #expect(answered, "the helper did not answer under the filter: \(fill.stderr)")
    }

    @Test("A kernel without KEYCTL_MOVE: the first set of a service fails naming Linux 5.1 and --backend file")
    func noMove() throws {
        let sandbox = try Sandbox()
        let environment = sandbox.baseEnvironment()
        let store = ["--backend", "kernel", "--service", TestStore.uniqueService("cli-no-move")]
        defer { _ = try? CLI.run(["remove-all", "--yes"] + store, environment: environment) }
        let token = "tok-\(UUID().uuidString)"
        let set = try KeyCallFilter.runTool(
            .noMove, ["set", "github"] + store + ["--username", "alice", "--url", "https://github.com"], environment: environment,
            stdin: token)
        #expect(set.status == 69, "\(set.stderr)")
        #expect(
            set.stderr.contains("KEYCTL_MOVE") && set.stderr.contains("Linux 5.1 or later"),
            "set does not name the kernel needed: \(set.stderr)")
        #expect(set.stderr.contains("--backend file"), "set does not name the fallback: \(set.stderr)")
        #expect(!set.allOutput.contains(token), "the password was printed")
        #expect(try CLI.run(["get", "github"] + store, environment: environment).status == 1, "a record was kept")
        #expect(try CLI.run(["list"] + store, environment: environment).stdout == "")

        // Without the filter the same set works; once the service's keyring is there, reads need no move.
        let free = try CLI.run(
            ["set", "github"] + store + ["--username", "alice", "--url", "https://github.com"], stdin: token,
            environment: environment)
        #expect(free.status == 0, "\(free.stderr)")
        let get = try KeyCallFilter.runTool(.noMove, ["get", "github"] + store, environment: environment)
        let readBack = get.status == 0 && get.stdout == token + "\n"
        #expect(readBack, "get under the filter did not read the record github: \(get.stderr)")
    }
}
