internal import KeyringCrypto
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// `docker-credential-swift-keyring [OPTIONS] store|get|erase|list|version`: the protocol of
/// docker-credential-helpers as docker, podman, skopeo and buildah run it
/// (`credentials/credentials.go`), on the store `swift-keyring` would choose.
///
/// As the reference helpers do, every answer and every failure is written on standard output,
/// where the Go client library reads it (`client.Get` compares it with
/// ``DockerCredentialRecords/notFoundMessage``): one line, never a secret. A server not held is
/// that line and status 1; other failures use the tool's statuses (65 bad input, 64 usage,
/// 69 store unavailable…), all non-zero, which is all a client looks at.
package enum DockerCredentialHelper {
    /// The most standard input read, in bytes: the reference reads lines of at most 64 KiB
    /// (`bufio.Scanner`'s bound) and refuses longer ones; a registry secret is far smaller.
    package static let maximumInputBytes = 64 * 1024
    /// The helper's version, the tool's.
    package static let version = "0.1.0"

    /// Runs the action the command line names; the exit status.
    package static func run(_ words: [String]) -> Int32 {
        do {
            if let problem = ArgumentWords.problem { throw CommandFailure(message: problem, status: ExitStatus.usage) }
            let arguments = try DockerHelperArguments.parse(words)
            switch arguments.action {
            case "version", "--version", "-v":
                Console.output("docker-credential-swift-keyring (swift-keyring) \(version)")
                return 0
            case "--help", "-h":
                Console.output(DockerHelperArguments.usage)
                return 0
            case "store", "get", "erase", "list":
                return try perform(arguments)
            case "import":
                return try DockerLoginImport.run(arguments)
            default:
                throw CommandFailure(
                    message: "docker-credential-swift-keyring: unknown action: \(arguments.action)", status: ExitStatus.usage)
            }
        } catch let error as KeyringError {
            // Descriptions of keyring errors never carry a secret.
            answer(error.description)
            return ExitStatus.of(error).rawValue
        } catch let failure as CommandFailure {
            answer(failure.message)
            return failure.status.rawValue
        } catch {
            answer("\(error)")
            return 70
        }
    }

    /// One line on standard output, escaped for a terminal, as the reference writes its errors.
    private static func answer(_ line: String) {
        Console.output(PrintableField.escaped(line))
    }

    private static func perform(_ arguments: DockerHelperArguments) throws -> Int32 {
        switch arguments.action {
        case "list":
            let keyring = try KeyringOpener.open(arguments.settings)
            var output = Array("{".utf8)
            for (index, record) in try DockerCredentialRecords.list(in: keyring).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                DockerCredentialJSON.appendString(record.server.utf8, to: &output)
                output.append(UInt8(ascii: ":"))
                DockerCredentialJSON.appendString(record.username.utf8, to: &output)
            }
            Console.write(String(decoding: output + Array("}\n".utf8), as: UTF8.self), to: STDOUT_FILENO)
        case "store":
            var input = try readInput()
            defer { input.wipe() }
            var request = try DockerStoreRequest(input)
            defer { request.secret.wipe() }
            let keyring = try KeyringOpener.open(arguments.settings)
            try DockerCredentialRecords.store(
                server: request.server, username: request.username, secret: request.takeSecret(), sync: arguments.sync,
                in: keyring)
        case "get":
            let server = try readServer()
            let keyring = try KeyringOpener.open(arguments.settings)
            guard var found = try DockerCredentialRecords.find(server: server, in: keyring) else {
                answer(DockerCredentialRecords.notFoundMessage)
                return ExitStatus.notFound.rawValue
            }
            defer { found.secret.wipe() }
            // One buffer of the largest size the answer can take: a growing one would leave outgrown copies unwiped.
            var output: [UInt8] = []
            output.reserveCapacity(
                DockerCredentialJSON.escapedBound(server.utf8.count + found.username.utf8.count + found.secret.count) + 64)
            output += Array("{\"ServerURL\":".utf8)
            DockerCredentialJSON.appendString(server.utf8, to: &output)
            output += Array(",\"Username\":".utf8)
            DockerCredentialJSON.appendString(found.username.utf8, to: &output)
            output += Array(",\"Secret\":".utf8)
            DockerCredentialJSON.appendString(found.secret, to: &output)
            output.append(UInt8(ascii: "}"))
            Console.outputSecret(&output)
        default:
            let server = try readServer()
            let keyring = try KeyringOpener.open(arguments.settings)
            try DockerCredentialRecords.erase(server: server, in: keyring)
        }
        return 0
    }

    /// The server `get` and `erase` read: all of standard input without the white space around
    /// it (Go's `strings.TrimSpace`, as the reference); refused when empty, not UTF-8, or holding
    /// a control character.
    private static func readServer() throws -> String {
        let input = try readInput()
        guard let text = String(validating: input, as: UTF8.self) else { throw refusal("ServerURL is not UTF-8 text") }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { throw refusal("ServerURL is missing (no credentials server URL)") }
        let server = String(scalars[first...last])
        if let problem = DockerCredentialRecords.problem(withServer: server) { throw refusal(problem) }
        return server
    }

    /// Refused input: status 65, the field and the reason, never a value.
    static func refusal(_ reason: String) -> CommandFailure {
        CommandFailure(message: "Refused the input: \(reason); nothing was changed.", status: ExitStatus.invalidInput)
    }

    /// All of standard input, at most ``maximumInputBytes``, in one buffer sized once (it may hold
    /// a secret, which the caller wipes). Past the bound, refused, naming the member the cut fell in.
    private static func readInput() throws -> [UInt8] {
        var (bytes, overflowed) = DockerBoundedRead.all(from: STDIN_FILENO, bound: maximumInputBytes)
        guard !overflowed else {
            let field = DockerStoreRequest.memberCut(in: bytes)
            bytes.wipe()
            throw refusal(
                "\(field.map { "\($0) is" } ?? "the input is") longer than the \(maximumInputBytes) bytes the helper reads")
        }
        return bytes
    }
}
