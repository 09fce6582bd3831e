import Foundation
import KeyringTestSupport
import Testing

/// What the tool refuses before it stores anything, and how much it reads before refusing.
@Suite("CLI: refusals and bounded reads")
struct CLIRefusalsAndBoundedReadsTests {
    private let set = ["set", "ci", "--username", "bot", "--url", "https://git.example"]

    /// Runs `shell` (a pipeline ending in the tool, named `"$TOOL"`) under `/usr/bin/time`, and
    /// returns the tool's status, its standard error, and the peak resident memory of the
    /// process `time` ran (KiB): a bound on memory, not on time.
    private func measured(_ pipeline: String, environment: [String: String]) throws -> (Int32, String, Int) {
        let folder = try TemporaryFolder.make()
        let report = folder.appendingPathComponent("time").path
        var environment = environment
        environment["TOOL"] = CLI.binary.path
        environment["REPORT"] = report
        let result = try Command.run("/bin/bash", ["-c", pipeline], environment: environment, timeout: 120)
        let text = try String(contentsOfFile: report, encoding: .utf8)
        let lines = text.split(separator: "\n")
        let peak = try #require(lines.last.flatMap { Int($0) }, "no figure from time: \(text)")
        return (result.status, result.stderr, peak)
    }

    @Test("65: an empty pipe is not stored as an empty password; --allow-empty-password stores one on purpose")
    func emptyPassword() throws {
        let sandbox = try Sandbox()
        let environment = sandbox.fileEnvironment()
        let refused = try CLI.run(set, stdin: "", environment: environment)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("The password on standard input is empty"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--allow-empty-password"))
        #expect(try CLI.run(["get", "ci"], environment: environment).status == 1)
        let newline = try CLI.run(set, stdin: "\n", environment: environment)
        #expect(newline.status == 65)
        let allowed = try CLI.run(set + ["--allow-empty-password"], stdin: "", environment: environment)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        let get = try CLI.run(["get", "ci"], environment: environment)
        #expect(get.status == 0 && get.stdout == "\n")
    }

    @Test("64: a password given as an argument is reported without being repeated")
    func unexpectedArgument() throws {
        let sandbox = try Sandbox()
        let secret = "hunter2-\(UUID().uuidString)"
        for arguments in [
            ["set", "x", secret, "--username", "u", "--url", "https://x.example"],
            ["set", "x", secret, secret + "b", "--username", "u", "--url", "https://x.example"],
            ["get", "x", secret],
        ] {
            let result = try CLI.run(arguments, stdin: "pw", environment: sandbox.fileEnvironment())
            #expect(result.status == 64)
            #expect(!result.allOutput.contains(secret), "the argument was echoed: \(arguments[0])")
            #expect(result.stderr.contains("nexpected argument"), "\(result.stderr)")
        }
    }

    @Test("65: 100 MiB piped to set is refused at the 1 MiB limit, in under 40 MiB of memory")
    func hundredMebibytes() throws {
        let sandbox = try Sandbox()
        let (status, stderr, peak) = try measured(
            #"head -c 104857600 /dev/zero | /usr/bin/time -f %M -o "$REPORT" "$TOOL" set ci --username bot --url https://git.example"#,
            environment: sandbox.fileEnvironment())
        #expect(status == 65)
        #expect(stderr.contains("The password on standard input is longer than 1 MiB"), "\(stderr)")
        #expect(peak < 40 * 1024, "peak resident memory \(peak) KiB")
        #expect(!FileManager.default.fileExists(atPath: sandbox.keyringFile.path))
        // Exactly 1 MiB, and 1 MiB with its final newline, are still taken.
        let limit = Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
        #expect(try CLI.run(set, stdinBytes: limit + Data("\n".utf8), environment: sandbox.fileEnvironment()).status == 0)
        #expect(try CLI.run(set, stdinBytes: limit + Data("a".utf8), environment: sandbox.fileEnvironment()).status == 65)
    }

    @Test("74: libsecret's file of millions of one-byte items is refused at the first, in under 64 MiB of memory")
    func tinyItems() throws {
        let sandbox = try Sandbox()
        let file = sandbox.folder.appendingPathComponent("keyrings/default.keyring")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(chmod(file.deletingLastPathComponent().path, 0o700) == 0)
        let bytes = Self.fileOfTinyItems(count: 5_500_000)
        #expect(bytes.count > 30 * 1024 * 1024 && bytes.count <= 32 * 1024 * 1024)
        try FileStoreFixture.writePrivate(bytes, to: file)
        let environment = sandbox.baseEnvironment().merging([
            "SWIFT_KEYRING_BACKEND": "libsecret-file", "SWIFT_KEYRING_LIBSECRET_FILE": file.path,
            "SWIFT_KEYRING_PASSPHRASE": "any",
        ]) { $1 }
        let (status, stderr, peak) = try measured(
            #"/usr/bin/time -f %M -o "$REPORT" "$TOOL" list"#, environment: environment)
        #expect(status == 74, "\(stderr)")
        #expect(stderr.contains("item 0: its sealed item is 1 bytes"), "\(stderr)")
        #expect(peak < 64 * 1024, "peak resident memory \(peak) KiB")
    }

    /// libsecret's file (docs/LIBSECRET_FILE_FORMAT.md) holding `count` items of no attributes and
    /// a one-byte sealed part: `(uayutua(a{say}ay))`, four-byte framing offsets past 64 KiB.
    static func fileOfTinyItems(count: Int) -> Data {
        func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        var body: [UInt8] = []
        body.reserveCapacity(6 * count + 64)
        let salt = [UInt8](repeating: 7, count: 8)
        body += littleEndian(UInt32(salt.count)) + salt
        let saltEnd = body.count
        body += littleEndian(UInt32(100_000))
        while body.count % 8 != 0 { body.append(0) }
        body += littleEndian(UInt64(1_700_000_000)) + littleEndian(UInt32(0))
        // Each item: the empty dictionary, the blob's one byte, and the item's framing offset (0, one byte).
        let arrayStart = body.count
        for _ in 0..<count { body += [0x41, 0] }
        for index in 0..<count { body += littleEndian(UInt32(2 * (index + 1))) }
        precondition(body.count - arrayStart > 0xFFFF)
        body += littleEndian(UInt32(saltEnd))
        return Data(Array("GnomeKeyring\n\r".utf8) + [0, 0x0A, 1, 0] + body)
    }

    @Test("64: unlock --for 31d is refused before any passphrase is asked for, said as written")
    func unlockDuration() throws {
        let (sandbox, environment) = try Sandbox.fileWithRecord("pw")
        defer { withExtendedLifetime(sandbox) {} }
        for (words, shown) in [("31d", "31d"), ("0s", "0s"), ("720h1s", "720h1s")] {
            // Nothing on standard input: the old order read it first and failed with 65, "No password was given".
            let result = try CLI.run(["unlock", "--for", words], stdin: "", environment: environment)
            #expect(result.status == 64, "\(words): \(result.stderr)")
            #expect(result.stderr.contains("--for \(shown) is out of range"), "\(result.stderr)")
            #expect(!result.stderr.contains("2678400") && !result.stderr.contains("2592001"))
        }
    }

    @Test("A SWIFT_KEYRING_PASSPHRASE set while the file is unlocked is warned of; unset, nothing is said")
    func passphraseWhileUnlocked() throws {
        let (sandbox, environment) = try Sandbox.fileWithRecord("pw")
        let unlock = try CLI.run(["unlock", "--for", "5m"], stdin: sandbox.passphrase + "\n", environment: environment)
        defer { _ = try? CLI.run(["lock"], environment: environment) }
        #expect(unlock.status == 0, "\(unlock.stderr)")
        let quiet = try CLI.run(["get", "gh"], environment: environment)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        var wrong = environment
        wrong["SWIFT_KEYRING_PASSPHRASE"] = "not-the-passphrase"
        let warned = try CLI.run(["get", "gh"], environment: wrong)
        #expect(warned.status == 0)
        #expect(warned.stderr.contains("SWIFT_KEYRING_PASSPHRASE is set but was neither used nor checked"), "\(warned.stderr)")
        #expect(!warned.allOutput.contains("not-the-passphrase"))
    }
}
