import Foundation
import KeyringTestSupport

/// The person at the screen, for unlock prompt tests: gcr's mock system prompter
/// (Tests/MockPrompter/mock-prompter.c), answering each prompt after `delay`.
///
/// `Scripts/with-secret-service.sh` builds it and names it in
/// `SWIFT_KEYRING_MOCK_PROMPTER`; without it the prompt tests fail, never skip.
struct MockPrompter: Sendable {
    enum Answer: Sendable {
        /// Types the sandbox keyring's password and presses Continue.
        case password
        /// Dismisses the prompt.
        case cancel
    }

    /// How long the person takes over each prompt.
    var delay: Duration
    /// The answers, one a prompt, in order; once they run out a prompt is never answered.
    var answers: [Answer]

    /// A person who never answers.
    static let absent = MockPrompter(delay: .zero, answers: [])

    /// Starts the prompter on the bus of `environment`; returns it and its bus name.
    func start(environment: [String: String], password: String, log: URL) throws -> (Process, String) {
        guard let binary = environment["SWIFT_KEYRING_MOCK_PROMPTER"], FileManager.default.isExecutableFile(atPath: binary) else {
            throw ChildProcess.Failure(
                description: "the mock prompter is missing: run the tests with Scripts/with-secret-service.sh, "
                    + "which builds it (Scripts/build-mock-prompter.sh, needs libgcr-3-dev)")
        }
        let script = answers.map { answer in
            switch answer {
            case .password: return "password \(password)\n"
            case .cancel: return "cancel\n"
            }
        }.joined()
        let milliseconds = delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000
        let process = try ChildProcess.start(
            [binary, String(milliseconds)], environment: environment, input: Data(script.utf8), log: log)
        var name: String?
        let started = ChildProcess.poll(timeout: .seconds(15)) {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            name = output.split(separator: "\n").first { $0.hasPrefix(":") }.map(String.init)
            return name != nil || !process.isRunning
        }
        guard started, let name else {
            ChildProcess.terminate(process)
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw ChildProcess.Failure(description: "the mock prompter did not start: \(output)")
        }
        return (process, name)
    }
}
