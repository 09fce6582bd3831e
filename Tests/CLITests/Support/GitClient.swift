import Foundation
import KeyringTestSupport

/// The real `git` (Debian's), driving the built helper in a throwaway HOME with no
/// global configuration, no terminal prompt and no askpass, so nothing prompts or leaks.
struct GitClient {
    /// `git-credential-swift-keyring`, beside the `swift-keyring` the tests run.
    static let helper = URL(fileURLWithPath: Command.tool).deletingLastPathComponent()
        .appendingPathComponent("git-credential-swift-keyring").path

    /// The store's environment (`SWIFT_KEYRING_*`, the bus), to which git's own settings are added.
    var environment: [String: String]
    /// The helper as git's `credential.helper` value: an absolute path, run as it is.
    var helperValue: String = GitClient.helper
    /// More `-c name=value` settings, such as `credential.useHttpPath=true`.
    var settings: [String] = []

    init(sandbox: Sandbox, storeEnvironment: [String: String]) {
        var environment = storeEnvironment
        environment["HOME"] = sandbox.folder.path
        environment["XDG_CONFIG_HOME"] = sandbox.folder.appendingPathComponent("xdg-config").path
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_ASKPASS"] = ""
        environment["SSH_ASKPASS"] = ""
        environment["GIT_AUTHOR_NAME"] = "Test"
        environment["GIT_AUTHOR_EMAIL"] = "test@example.com"
        environment["GIT_COMMITTER_NAME"] = "Test"
        environment["GIT_COMMITTER_EMAIL"] = "test@example.com"
        self.environment = environment
    }

    /// `git -c credential.helper=HELPER -c core.askPass= ARGUMENTS`.
    func run(_ arguments: [String], stdin: String? = nil, in folder: URL? = nil) throws -> CommandResult {
        var prefix = ["-c", "credential.helper=", "-c", "credential.helper=\(helperValue)", "-c", "core.askPass="]
        for setting in settings { prefix += ["-c", setting] }
        if let folder { prefix = ["-C", folder.path] + prefix }
        return try Command.run("/usr/bin/git", prefix + arguments, environment: environment, stdin: stdin, timeout: 120)
    }

    /// `git credential ACTION` with `attributes` (one `name=value` a line).
    func credential(_ action: String, _ attributes: [String]) throws -> CommandResult {
        try run(["credential", action], stdin: attributes.joined(separator: "\n") + "\n\n")
    }

    /// The helper run directly, as git runs it, with `input` on standard input.
    func helper(_ action: String, input: Data) throws -> CommandResult {
        try Command.run(GitClient.helper, [action], environment: environment, stdinBytes: input)
    }
}
