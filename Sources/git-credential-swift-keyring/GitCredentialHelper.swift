import KeyringCommandLine
import KeyringCrypto
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
/// `password=` (and `password_expiry_utc=` and `oauth_refresh_token=` when git stored them)
/// on standard output. The store is chosen exactly as `swift-keyring` chooses
/// it, from the same store options (`--backend`, `--file`, `--collection` and the rest,
/// written before the action in git's `credential.helper` value) and `SWIFT_KEYRING_*`
/// variables; the records live in the service `git-credential` unless `--service` names another.
@main
struct GitCredentialHelper {
    static func main() {
        ProcessStart.begin()
        // Every buffer that held the password is wiped where it was used; nothing is at the exit
        // (the stack holds no copy: this executable binds its symbols at load, Package.swift).
        let status = run()
        if status != 0 { exit(status) }
    }

    /// The action git asked for; the exit status.
    private static func run() -> Int32 {
        do {
            if let problem = ArgumentWords.problem {
                throw CommandFailure(message: problem, status: ExitStatus.usage)
            }
            let (options, action) = try arguments(Array(CommandLine.arguments.dropFirst()))
            // gitcredentials(7): a helper ignores an action it does not know, so a newer git can add some.
            guard ["get", "store", "erase"].contains(action) else { return 0 }
            // The input holds the password on `store`: its bytes are wiped once parsed.
            var input = try readInput()
            defer { input.wipe() }
            // The password and refresh token stay in `input`: no `String` of them is made on `store`.
            let request = try GitCredentialInput.request(input)
            // Another protocol, or no host: git asks the next helper, and no store is opened.
            guard request.credential.isWeb else { return 0 }
            let keyring = try KeyringOpener.open(options)
            switch action {
            case "get":
                // `get` passes over (and reports) a record git could not take, so `answer` is there.
                guard var found = try GitCredentialRecords.find(request.credential, in: keyring) else { return 0 }
                defer { found.secret.wipe() }
                guard let username = found.credential.username,
                    var answer = GitCredentialInput.answer(username: username, secret: found.secret, parts: found.parts)
                else { return 0 }
                Console.outputSecret(&answer, endingLine: false)
            case "store":
                try GitCredentialRecords.store(request, from: input, in: keyring)
            default:
                try GitCredentialRecords.erase(request, from: input, in: keyring)
            }
        } catch let error as KeyringError {
            // Descriptions of keyring errors never carry a secret.
            Console.error(error.description)
            return ExitStatus.of(error).rawValue
        } catch let failure as CommandFailure {
            Console.error(failure.message)
            return failure.status.rawValue
        } catch {
            Console.error("\(error)")
            return 70
        }
        return 0
    }

    /// The store options git's `credential.helper` value gives (`--name value` or
    /// `--name=value`, and flags), the same as the tool's (`StoreSettings.valueOptionNames`
    /// and `flagOptionNames`), and the action git appends last. The service is
    /// `git-credential` unless `--service` names another (`SWIFT_KEYRING_SERVICE` is an
    /// app's, and is not read here).
    static func arguments(_ words: [String]) throws -> (StoreSettings, String) {
        // Plain settings, not `StoreOptions`: its property wrappers' set-up is start time git waits for.
        var options = StoreSettings()
        options.service = GitCredentialRecords.service
        guard let action = words.last, !action.hasPrefix("-") else { throw usage("no action (get, store or erase) was given") }
        let optionWords = Array(words.dropLast())
        var index = 0
        while index < optionWords.count {
            _ = try options.readOption(from: optionWords, at: &index, usage: usage)
        }
        return (options, action)
    }

    private static func usage(_ reason: String) -> CommandFailure {
        let options =
            StoreSettings.valueOptionNames.map { "[\($0) VALUE]" } + StoreSettings.flagOptionNames.map { "[\($0)]" }
        return CommandFailure(
            message:
                "\(reason). Usage: git-credential-swift-keyring \(options.joined(separator: " ")) get|store|erase "
                + "(the store options of swift-keyring; see swift-keyring --help)",
            status: ExitStatus.usage)
    }

    /// Standard input up to its end or a blank line, at most one byte past the input bound
    /// (so an over-long input is told apart and refused, not cut).
    private static func readInput() throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        // Room for the whole bound at once: a growing array would leave each outgrown
        // buffer, password and all, in freed memory where no wipe reaches it.
        bytes.reserveCapacity(GitCredentialInput.maximumInputBytes + chunk.count)
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
