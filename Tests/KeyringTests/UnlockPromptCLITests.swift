import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// The `swift-keyring` tool at a locked keyring, as a person at a terminal meets it:
/// the right value or one clear sentence, exit 69 when it cannot go on, and never a
/// GLib message on standard error. Each test has its own bus, prompter and daemon.
@Suite("Unlock prompts through the CLI")
struct UnlockPromptCLITests {
    /// The tool `swift build --build-tests` put beside the test bundle.
    private static var binary: String { Command.tool }

    private static let password = "correct horse battery staple"

    /// A sandbox whose `test.prompt/work` record is stored, then locked.
    private func lockedSandbox(_ prompter: MockPrompter) throws -> SecretServiceSandbox {
        let sandbox = try SecretServiceSandbox(.busAndDaemon, prompter: prompter)
        do {
            let keyring = try Keyring(service: "test.prompt", store: SecretServiceStore(environment: sandbox.environment))
            try keyring.set(try Samples.credentials(password: Self.password), forKey: "work")
            try sandbox.lockDefaultCollection()
        } catch {
            sandbox.stop()
            throw error
        }
        return sandbox
    }

    private func run(_ arguments: [String], input: String = "", in sandbox: SecretServiceSandbox) throws -> ChildProcess.Output {
        var environment = sandbox.environment
        environment["SWIFT_KEYRING_BACKEND"] = "secret-service"
        environment["SWIFT_KEYRING_SERVICE"] = "test.prompt"
        // A display, as at a desktop: without one, a dismissed prompt reads as "locked".
        environment["DISPLAY"] = ":99"
        let output = try ChildProcess.run(
            [Self.binary] + arguments, environment: environment, input: Data(input.utf8), timeout: .seconds(60))
        for word in ["GLib", "CRITICAL", "WARNING"] {
            #expect(!output.standardError.contains(word), "\(arguments.first ?? ""): stderr has \(word): \(output.standardError)")
        }
        return output
    }

    @Test("get, prompt answered after 1 s: the password, exit 0")
    func getAnswered() throws {
        let sandbox = try lockedSandbox(MockPrompter(delay: .seconds(1), answers: [.password]))
        defer { sandbox.stop() }
        let get = try run(["get", "work"], in: sandbox)
        #expect(get.status == 0, "\(get.standardError)")
        #expect(String(decoding: get.standardOutput, as: UTF8.self) == Self.password + "\n")
    }

    @Test("get, prompt dismissed: exit 69, saying the prompt was dismissed")
    func getDismissed() throws {
        let sandbox = try lockedSandbox(MockPrompter(delay: .seconds(1), answers: [.cancel]))
        defer { sandbox.stop() }
        let get = try run(["get", "work"], in: sandbox)
        #expect(get.status == 69)
        #expect(get.standardError.contains("The unlock prompt of the Secret Service was dismissed."))
        #expect(get.standardOutput.isEmpty)
    }

    @Test("get, prompt never answered with --prompt-timeout 3: exit 69, naming the unlock prompt and the option")
    func getNeverAnswered() throws {
        let sandbox = try lockedSandbox(.absent)
        defer { sandbox.stop() }
        let get = try run(["get", "work", "--prompt-timeout", "3"], in: sandbox)
        #expect(get.status == 69)
        #expect(
            get.standardError.contains(
                "Nobody answered the unlock prompt of the Secret Service to read test.prompt/work (credentials) within 3 s."))
        #expect(get.standardError.contains("--prompt-timeout"))
        #expect(sandbox.daemonIsRunning)
    }

    @Test("set, prompt answered after 1 s: stored, and get returns it")
    func setAnswered() throws {
        let sandbox = try lockedSandbox(MockPrompter(delay: .seconds(1), answers: [.password]))
        defer { sandbox.stop() }
        let set = try run(["set", "other", "--username", "bob", "--url", "https://x.example"], input: "new-value", in: sandbox)
        #expect(set.status == 0, "\(set.standardError)")
        let get = try run(["get", "other"], in: sandbox)
        #expect(String(decoding: get.standardOutput, as: UTF8.self) == "new-value\n")
    }
}
