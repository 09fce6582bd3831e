import ArgumentParser
import Testing

@testable import swift_keyring

/// The tool reads well-formed command lines itself (`CommandLineShortcut`) and leaves the
/// rest to ArgumentParser. Both must make the same command of every line the shortcut reads,
/// or a script would get a different record, store or flag depending on which parser ran.
@Suite("CLI: command lines read without ArgumentParser")
struct CLICommandLineShortcutTests {
    /// Lines the shortcut reads: every subcommand, every option and flag, both `--name value`
    /// and `--name=value`, options before and after the key, and keys ArgumentParser might
    /// mistake for something else.
    static let readByShortcut: [[String]] = [
        ["get"],
        ["get", "github"],
        ["get", "github", "--json"],
        ["get", "--json", "github"],
        ["get", "github", "--service", "com.example.mail", "--backend", "file", "--file", "/tmp/keyring.swkr"],
        ["get", "--service=com.example.mail", "github"],
        ["get", "k", "--prompt-timeout", "30"],
        ["get", "k", "--backend", "etcd", "--etcd-endpoints", "http://127.0.0.1:2379,http://127.0.0.1:22379"],
        ["get", "ключ", "--service", "сервис"],
        ["get", "help"],
        ["get", "set"],
        ["set", "k", "--username", "alice", "--url", "https://example.com"],
        ["set", "--url=https://example.com/?a=b&c=d", "--username", "alice", "--sync", "--background-access"],
        ["set", "--username", "alice", "k", "--url", "https://example.com", "--backend", "memory"],
        ["remove"],
        ["remove", "k", "--backend", "memory"],
        ["list"],
        ["list", "--json", "--sync-only", "--background-access-only"],
        ["list", "--background-access-only", "--service", "s"],
        ["remove-all"],
        ["remove-all", "--yes", "--service", "com.example.mail"],
        ["doctor"],
        ["doctor", "--json", "--backend", "secret-service"],
        ["passwd", "--backend", "file", "--file", "/tmp/keyring.swkr"],
        ["migrate", "--from", "file", "--to", "etcd", "--remove-source"],
        ["migrate", "--to=memory", "--from=file"],
    ]

    /// Lines left to ArgumentParser: help, completions, errors, and forms the shortcut does not read.
    static let leftToArgumentParser: [[String]] = [
        [],
        ["--help"],
        ["-h"],
        ["help"],
        ["help", "get"],
        ["get", "--help"],
        ["get", "-h"],
        ["--generate-completion-script", "bash"],
        ["--version", "get"],
        ["get", "--version"],
        ["frobnicate"],
        ["get", "a", "b"],
        ["get", "--json", "--json"],
        ["get", "--json=true"],
        ["get", "--service"],
        ["get", "--service", "--json"],
        ["get", "--service", "a", "--service", "b"],
        ["get", "--", "-k"],
        ["get", "-k"],
        ["get", ""],
        ["get", "--service", ""],
        ["get", "--service="],
        ["get", "--service", "-s"],
        ["get", "--unknown"],
        ["get", "--url", "https://example.com"],
        ["set", "k", "--username", "alice"],
        ["list", "k"],
        ["remove-all", "k"],
        ["passwd", "--json"],
        ["migrate", "--from", "file", "--to", "file"],
        ["migrate", "--from", "auto", "--to", "file"],
    ]

    @Test("The shortcut makes the same command as ArgumentParser", arguments: readByShortcut)
    func sameCommand(line: [String]) throws {
        guard case .command(let shortcut) = CommandLineShortcut.parse(line) else {
            Issue.record("the shortcut left \(line) to ArgumentParser")
            return
        }
        let parsed = try SwiftKeyring.parseAsRoot(line)
        #expect(Self.fields(of: shortcut) == Self.fields(of: parsed))
        #expect(!Self.fields(of: shortcut).isEmpty, "no fields for \(type(of: shortcut))")
    }

    @Test("--version alone prints what ArgumentParser prints")
    func version() throws {
        guard case .version = CommandLineShortcut.parse(["--version"]) else {
            Issue.record("the shortcut left --version to ArgumentParser")
            return
        }
        #expect(throws: (any Error).self) { try SwiftKeyring.parseAsRoot(["--version"]) }
        do {
            _ = try SwiftKeyring.parseAsRoot(["--version"])
        } catch {
            #expect(SwiftKeyring.message(for: error) == SwiftKeyring.configuration.version)
        }
    }

    @Test("Help, completions, errors and unusual forms are left to ArgumentParser", arguments: leftToArgumentParser)
    func leftAlone(line: [String]) {
        #expect(CommandLineShortcut.parse(line) == nil, "the shortcut read \(line)")
    }

    /// Every property of every subcommand, as text, so two commands compare field by field.
    private static func fields(of command: any ParsableCommand) -> [String] {
        func text(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "nil" }
        func store(_ options: StoreOptions) -> [String] {
            [options.service, options.backend, options.etcdEndpoints, options.file, options.promptTimeout].map(text)
        }
        switch command {
        case let get as GetCommand:
            return ["get", text(get.key), "\(get.json)"] + store(get.store)
        case let set as SetCommand:
            return ["set", text(set.key), set.username, set.url, "\(set.sync)", "\(set.backgroundAccess)"] + store(set.store)
        case let remove as RemoveCommand:
            return ["remove", text(remove.key)] + store(remove.store)
        case let list as ListCommand:
            return ["list", "\(list.json)", "\(list.syncOnly)", "\(list.backgroundAccessOnly)"] + store(list.store)
        case let removeAll as RemoveAllCommand:
            return ["remove-all", "\(removeAll.yes)"] + store(removeAll.store)
        case let doctor as DoctorCommand:
            return ["doctor", "\(doctor.json)"] + store(doctor.store)
        case let passwd as PasswdCommand:
            return ["passwd"] + store(passwd.store)
        case let migrate as MigrateCommand:
            return ["migrate", migrate.from, migrate.to, "\(migrate.removeSource)"] + store(migrate.store)
        default:
            return []
        }
    }
}
