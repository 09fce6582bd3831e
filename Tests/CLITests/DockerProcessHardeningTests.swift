import Foundation
import KeyringTestSupport
import Testing

/// The docker helper holds a registry secret for its short life, as the tool does
/// (``CLIProcessHardeningTests``): no core file may keep it, and no other process of the same
/// user may read its memory. Looked at while it waits for its input.
@Suite("Docker helper: process hardening")
struct DockerProcessHardeningTests {
    @Test(
        "Started with core dumps allowed, the helper runs with a core-file limit of zero and is not dumpable",
        CLIProcessHardeningTests.setpriv.trait())
    func hardened() throws {
        try CLIProcessHardeningTests.setpriv.require()
        let run = try WaitingTool(asOtherUser: geteuid() == 0, program: DockerHelperClient.helper, arguments: ["store"])
        defer { run.finish() }
        let noCore = run.poll { pid in
            let limits = (try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)) ?? ""
            let core = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }
            return core?.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).first == "0"
        }
        let undumpable = run.poll { pid in
            var info = stat()
            return stat("/proc/\(pid)/environ", &info) == 0 && info.st_uid == 0
        }
        #expect(noCore, "the waiting helper's soft core-file limit never became 0")
        #expect(undumpable, "the helper's /proc/PID/environ stayed owned by the user it runs as, so it is dumpable")
    }
}
