import KeyringTestSupport
import Testing

/// The git helper run by hand, as git runs it: `store` of bob's `git-pw` for example.com,
/// then `get` of the same host, each a fresh process in `environment`.
enum GitHelperRoundTrip {
    /// The helper's answer to `get` for example.com.
    static func fill(_ environment: [String: String]) throws -> CommandResult {
        try Command.run(GitClient.helper, ["get"], environment: environment, stdin: "protocol=https\nhost=example.com\n\n")
    }

    /// Stores the credential and expects `get` to give it back; `when` says under what, for the failure messages.
    static func expectStoresAndFills(_ environment: [String: String], when: String) throws {
        let stored = try Command.run(
            GitClient.helper, ["store"], environment: environment,
            stdin: "protocol=https\nhost=example.com\nusername=bob\npassword=git-pw\n\n")
        #expect(stored.status == 0, "the helper could not store \(when): \(stored.stderr)")
        let answer = try fill(environment)
        #expect(answer.status == 0 && answer.text.contains("password=git-pw\n"), "the helper did not answer \(when)")
    }
}
