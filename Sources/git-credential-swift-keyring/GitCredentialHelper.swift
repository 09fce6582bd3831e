import KeyringCommandLine
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// `git-credential-swift-keyring [OPTIONS] get|store|erase`: git's credential helper
/// (gitcredentials(7)), run by git for `credential.helper = swift-keyring`.
///
/// It reads git's attributes on standard input and, for `get`, answers `username=` and
/// `password=` on standard output. The store is chosen exactly as `swift-keyring` chooses
/// it, from the same options (`--backend`, `--file`, `--etcd-endpoints`,
/// `--prompt-timeout`, written before the action in git's `credential.helper` value) and
/// `SWIFT_KEYRING_*` variables; the records live in the service `git-credential`.
@main
struct GitCredentialHelper {
    static func main() {
        ProcessStart.begin()
        do {
            if let problem = ArgumentWords.problem {
                throw CommandFailure(message: problem, status: ExitStatus.usage)
            }
            let (options, action) = try arguments(Array(CommandLine.arguments.dropFirst()))
            // gitcredentials(7): a helper ignores an action it does not know, so a newer git can add some.
            guard ["get", "store", "erase"].contains(action) else { return }
            let credential = try GitCredentialInput.parse(try readInput())
            // Another protocol, or no host: git asks the next helper, and no store is opened.
            guard credential.isWeb else { return }
            if action == "get", let found = GitCredentialRecords.directGet(credential, options),
                let answer = GitCredentialInput.answer(found)
            {
                Console.write(answer, to: STDOUT_FILENO)
                return
            }
            let keyring = try KeyringOpener.open(options)
            switch action {
            case "get":
                guard let found = try GitCredentialRecords.get(credential, in: keyring) else { return }
                guard let answer = GitCredentialInput.answer(found) else {
                    throw CommandFailure(
                        message: "The stored credential's username or password holds a line break or NUL, which git cannot take.",
                        status: ExitStatus.invalidInput)
                }
                Console.write(answer, to: STDOUT_FILENO)
            case "store":
                try GitCredentialRecords.store(credential, in: keyring)
            default:
                try GitCredentialRecords.erase(credential, in: keyring)
            }
        } catch let error as KeyringError {
            // Descriptions of keyring errors never carry a secret.
            Console.error(error.description)
            exit(ExitStatus.of(error).rawValue)
        } catch let failure as CommandFailure {
            Console.error(failure.message)
            exit(failure.status.rawValue)
        } catch {
            Console.error("\(error)")
            exit(70)
        }
    }

    /// The store options git's `credential.helper` value gives (`--name value` or
    /// `--name=value`), and the action git appends last.
    static func arguments(_ words: [String]) throws -> (StoreSettings, String) {
        // Plain settings, not `StoreOptions`: its property wrappers' set-up is start time git waits for.
        var options = StoreSettings()
        options.service = GitCredentialRecords.service
        guard let action = words.last, !action.hasPrefix("-") else { throw usage("no action (get, store or erase) was given") }
        var index = 0
        let optionWords = words.dropLast()
        while index < optionWords.count {
            let word = optionWords[index]
            index += 1
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let value: String
            if parts.count == 2 {
                value = parts[1]
            } else {
                guard index < optionWords.count else { throw usage("\(word) needs a value") }
                value = optionWords[index]
                index += 1
            }
            switch parts[0] {
            case "--backend": options.backend = value
            case "--file": options.file = value
            case "--etcd-endpoints": options.etcdEndpoints = value
            case "--sync-store": options.syncStore = value
            case "--prompt-timeout": options.promptTimeout = value
            default: throw usage("unknown option \(parts[0])")
            }
        }
        return (options, action)
    }

    private static func usage(_ reason: String) -> CommandFailure {
        CommandFailure(
            message:
                "\(reason). Usage: git-credential-swift-keyring [--backend B] [--file PATH] [--etcd-endpoints URLS] "
                + "[--prompt-timeout SECONDS] get|store|erase",
            status: ExitStatus.usage)
    }

    /// Standard input up to its end or a blank line, at most one byte past the input bound
    /// (so an over-long input is told apart and refused, not cut).
    private static func readInput() throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        defer { for index in chunk.indices { chunk[index] = 0 } }
        while bytes.count <= GitCredentialInput.maximumInputBytes {
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[..<count])
            // A person typing at a terminal ends with a blank line, as git does.
            if bytes.first == UInt8(ascii: "\n") || bytes.suffix(count + 1).contains(subsequence: [0x0A, 0x0A]) { break }
        }
        return bytes
    }
}

extension Collection where Element == UInt8 {
    fileprivate func contains(subsequence: [UInt8]) -> Bool {
        guard count >= subsequence.count else { return false }
        return indices.contains { start in self[start...].starts(with: subsequence) }
    }
}
