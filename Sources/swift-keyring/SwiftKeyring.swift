import ArgumentParser
import KeyringCommandLine
import Logging
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// The `swift-keyring` command: store, read, list and remove credentials from a shell or a script.
@main
struct SwiftKeyring: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swift-keyring",
        abstract: "Store and read credentials in the Secret Service or an encrypted file.",
        discussion: """
            KEY left out means the default record. Every subcommand takes --service, --backend and \
            --file, after the subcommand or before it, or the environment variables \
            SWIFT_KEYRING_SERVICE, SWIFT_KEYRING_BACKEND and SWIFT_KEYRING_FILE; the service is \
            "default" unless one of them names another. --backend etcd uses a shared etcd cluster (--etcd-endpoints or \
            SWIFT_KEYRING_ETCD_ENDPOINTS; see docs/CLI.md, "Fleets on etcd"). --sync-store etcd (or \
            SWIFT_KEYRING_SYNC_STORE=etcd) keeps the records with the sync flag in that cluster and the \
            others in the local store (the README's "Sync across hosts"). --collection (or \
            SWIFT_KEYRING_COLLECTION) names the Secret Service collection to use instead of the default \
            one, by alias, label or path. SWIFT_KEYRING_LOG_LEVEL (debug, \
            info, warning…) sets how much the library logs to standard error; warnings only by default.

            Exit status: 0 success, 1 no such record, 64 usage error (an option or a SWIFT_KEYRING_* \
            setting), 65 invalid input, \
            69 store unavailable, locked, a prompt dismissed, or timed out, 74 damaged stored data, \
            75 partial (list could not reach the shared store), \
            77 wrong or missing passphrase, or unsafe file permissions.
            """,
        version: version,
        subcommands: [
            SetCommand.self, GetCommand.self, RemoveCommand.self, ListCommand.self,
            RemoveAllCommand.self, DoctorCommand.self, PasswdCommand.self, MigrateCommand.self, ImportCommand.self,
            SyncCommand.self, UnlockCommand.self, LockCommand.self,
        ]
    )

    /// The tool's version, on its own: `--version` prints it without building `configuration`
    /// (its subcommands' metadata and help texts).
    static let version = "0.1.0"

    static func main() {
        ProcessStart.begin()
        if let problem = ArgumentWords.problem {
            Console.error(problem)
            Glibc.exit(ExitStatus.usage.rawValue)
        }
        var command: any ParsableCommand
        let arguments = LeadingStoreOptions.moved(Array(CommandLine.arguments.dropFirst()))
        switch CommandLineShortcut.parse(arguments) {
        case .version:
            Console.output(version)
            return
        case .get(let request):
            finish { try request.run() }
            return
        case .command(let parsed):
            command = parsed
        case nil:
            do {
                command = try parseAsRoot(arguments)
            } catch {
                UsageMessage.exitIfItWouldRepeatAnArgument(error, of: Self.self)
                exit(withError: error)
            }
        }
        finish { try command.run() }
    }

    /// Runs a command and exits with the status of its failure, if any.
    ///
    /// Nothing is wiped at the exit: every buffer that held a secret was wiped where it was used,
    /// the kernel zeroes this process's memory before any other gets it, and `ProcessStart`
    /// keeps cores and ptrace out. The stack holds no copy either: the dynamic linker's
    /// lazy-binding trampoline, which saved vector registers a secret had just passed through
    /// onto it, never runs in this executable, which binds every symbol at load (`-z now`,
    /// Package.swift).
    private static func finish(_ run: () throws -> Void) {
        do {
            try run()
        } catch let status as ExitCode {
            // The status of a failure `run` has already reported: ArgumentParser's
            // `exit(withError:)` would build the usage text first, only to print nothing.
            Glibc.exit(status.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}
