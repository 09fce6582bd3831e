import Foundation
import KeyringTestSupport
import Testing

/// The manual page a person opens with `man -l docs/man/swift-keyring.1`, and the help beside it.
@Suite("CLI: the manual page and the help")
struct CLIManualPageTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    private static var page: String { root.appendingPathComponent("docs/man/swift-keyring.1").path }

    @Test("The page renders with no warning, through man and through groff")
    func noWarnings() throws {
        let man = try Command.run(
            "/bin/sh", ["-c", "man --warnings -l \"$PAGE\" >/dev/null"],
            environment: ["PAGE": Self.page, "MANWIDTH": "80", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        #expect(man.status == 0 && man.stderr.isEmpty, "man: \(man.stderr)")
        let groff = try Command.run("groff", ["-mdoc", "-ww", "-z", Self.page], environment: ["PATH": "/usr/bin:/bin"])
        #expect(groff.status == 0 && groff.stderr.isEmpty, "groff: \(groff.stderr)")
    }

    @Test("ENVIRONMENT names every SWIFT_KEYRING_* variable the sources read; EXIT STATUS every status; FILES, SEE ALSO")
    func sections() throws {
        let text = try String(contentsOfFile: Self.page, encoding: .utf8)
        for section in [".Sh ENVIRONMENT", ".Sh FILES", ".Sh \"EXIT STATUS\"", ".Sh SEE ALSO"] {
            #expect(text.contains(section), "no \(section)")
        }
        let environment = try #require(
            text.components(separatedBy: ".Sh ENVIRONMENT").last?.components(separatedBy: ".Sh FILES").first)
        var read: Set<String> = []
        let sources = FileManager.default.enumerator(atPath: Self.root.appendingPathComponent("Sources").path)
        while let file = sources?.nextObject() as? String {
            guard file.hasSuffix(".swift") else { continue }
            let content = try String(contentsOfFile: Self.root.appendingPathComponent("Sources/" + file).path, encoding: .utf8)
            let pattern = try Regex(#"SWIFT_KEYRING_[A-Z_]*[A-Z]"#)
            for match in content.matches(of: pattern) { read.insert(String(content[match.range])) }
        }
        read = read.filter { !$0.hasPrefix("SWIFT_KEYRING_KEYCTL_") && !$0.hasPrefix("SWIFT_KEYRING_KEY_SPEC_") }
        read.remove("SWIFT_KEYRING_ETCD")
        #expect(read.count > 20)
        for variable in read.sorted() {
            #expect(environment.contains(".It Ev \(variable)"), "ENVIRONMENT does not name \(variable)")
        }
        let statuses = try #require(text.components(separatedBy: ".Sh \"EXIT STATUS\"").last)
        for status in ["0", "1", "64", "65", "69", "74", "75", "77"] {
            #expect(statuses.contains("\n.It \(status)\n"), "EXIT STATUS does not list \(status)")
        }
        #expect(!text.contains("Empty input line") && !text.contains(".Ex -std"))
    }

    @Test("--help lists the same exit statuses as the README's table, 75 included")
    func helpAndReadme() throws {
        let help = try CLI.run(["--help"], environment: ["PATH": "/usr/bin:/bin", "COLUMNS": "80"])
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let table = Set(
            readme.split(separator: "\n").compactMap { line -> String? in
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                guard line.hasPrefix("| "), let first = cells.first, Int(first) != nil else { return nil }
                return first
            })
        #expect(table == ["0", "1", "64", "65", "69", "74", "75", "77"])
        let flat = help.stdout.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        for status in table {
            #expect(flat.contains(" \(status) "), "--help does not list \(status)")
        }
        let set = try CLI.run(["set", "--help"], environment: ["PATH": "/usr/bin:/bin", "COLUMNS": "80"])
        #expect(set.stdout.contains("printf %s \"$PW\" | swift-keyring set gh --username bob --url https://github.com"))
        let push = try CLI.run(["sync", "push", "--help"], environment: ["PATH": "/usr/bin:/bin", "COLUMNS": "80"])
        #expect(!push.stdout.contains("\\"), "stray backslashes: \(push.stdout)")
    }
}
