import Foundation
import KeyringTestSupport
import Testing

/// `--backend kernel` from the tool: records kept by one process are read by the next, in the
/// user's persistent keyring, and a bad keyring setting is a usage error naming it.
@Suite("CLI kernel keyring store")
struct CLIKernelStoreTests {
    @Test("set in one process, get, list and doctor in others; remove-all leaves nothing to get")
    func acrossProcesses() throws {
        let sandbox = try Sandbox()
        let environment = sandbox.baseEnvironment()
        let store = ["--backend", "kernel", "--service", TestStore.uniqueService("cli-kernel")]
        let set = try CLI.run(
            ["set", "github"] + store + ["--username", "alice", "--url", "https://github.com"], stdin: "tok-kernel",
            environment: environment)
        #expect(set.status == 0, "\(set.stderr)")
        let get = try CLI.run(["get", "github"] + store, environment: environment)
        let passwordBack = get.stdout == "tok-kernel\n"
        #expect(get.status == 0, "\(get.stderr)")
        #expect(passwordBack, "get prints the password stored by another process")
        #expect(try CLI.run(["list"] + store, environment: environment).stdout == "github\talice\thttps://github.com\t-\n")
        let doctor = try CLI.run(["doctor"] + store, environment: environment)
        #expect(doctor.stdout.contains("store:            kernel"), "\(doctor.stdout)")
        #expect(try CLI.run(["remove-all", "--yes"] + store, environment: environment).status == 0)
        #expect(try CLI.run(["get", "github"] + store, environment: environment).status == 1)
    }

    @Test("An unknown SWIFT_KEYRING_KERNEL_KEYRING is a usage error naming it, and auto never picks the kernel store")
    func settings() throws {
        let sandbox = try Sandbox()
        var environment = sandbox.baseEnvironment()
        environment["SWIFT_KEYRING_KERNEL_KEYRING"] = "user"
        let bad = try CLI.run(["get", "github", "--backend", "kernel"], environment: environment)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("SWIFT_KEYRING_KERNEL_KEYRING: must be persistent or session, not \"user\""), "\(bad.stderr)")
        let doctor = try CLI.run(["doctor"], environment: sandbox.fileEnvironment())
        #expect(!doctor.stdout.contains("store:            kernel"), "\(doctor.stdout)")
    }
}
