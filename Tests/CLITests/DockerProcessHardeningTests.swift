import Foundation
import KeyringTestSupport
import Testing

/// The docker helper holds a registry secret for its short life, as the tool does
/// (``CLIProcessHardeningTests``): no core file may keep it, and no other process of the same
/// user may read its memory. Looked at while it waits for its input.
@Suite("Docker helper: process hardening")
struct DockerProcessHardeningTests {
    /// As root, the helper runs as user 65534 (root's own processes are root's anyway).
    static let setpriv = "/usr/bin/setpriv"
    static let canRun =
        geteuid() != 0 || FileManager.default.isExecutableFile(atPath: setpriv)
        || ProcessInfo.processInfo.environment["CI"] == "true"

    @Test(
        "Started with core dumps allowed, the helper runs with a core-file limit of zero and is not dumpable",
        .enabled(if: canRun, "as root, the helper runs as another user through setpriv (util-linux)"))
    func hardened() throws {
        let asOtherUser = geteuid() == 0
        if asOtherUser {
            try #require(FileManager.default.isExecutableFile(atPath: Self.setpriv), "install setpriv (util-linux)")
        }
        // User 65534 runs a copy in a folder it may enter (the test folders are 0700, and the
        // build folder may be closed to it too).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("docker-hardening-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("docker-credential-swift-keyring")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: DockerHelperClient.helper), to: copy)
        #expect(chmod(copy.path, 0o755) == 0)

        let process = Process()
        let input = Pipe()
        let start = #"ulimit -S -c "$(ulimit -H -c)" && exec "$0" "$@""#
        let shell = ["/bin/sh", "-c", start, copy.path, "store"]
        let command = asOtherUser ? [Self.setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"] + shell : shell
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = ["SWIFT_KEYRING_BACKEND": "memory", "HOME": "/nonexistent", "PATH": "/usr/bin:/bin"]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            // No input: the helper refuses the empty store and exits.
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }

        // Both seen on the helper itself (not the shell or setpriv before it), within 30 s.
        let pid = process.processIdentifier
        var (noCore, undumpable) = (false, false)
        let end = Date(timeIntervalSinceNow: 30)
        while Date() < end, process.isRunning, !(noCore && undumpable) {
            let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            if name.hasPrefix("docker-credenti") {
                let limits = (try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)) ?? ""
                let core = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }
                noCore = core?.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).first == "0"
                var info = stat()
                undumpable = stat("/proc/\(pid)/environ", &info) == 0 && info.st_uid == 0
            }
            usleep(10_000)
        }
        #expect(noCore, "the waiting helper's soft core-file limit never became 0")
        #expect(undumpable, "the helper's /proc/PID/environ stayed owned by the user it runs as, so it is dumpable")
    }
}
