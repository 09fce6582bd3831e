import Foundation
import KeyringValidation
import SwiftKeyring
import Testing

@Suite("Credentials validation with rules")
struct CredentialsRuleTests {
    @Test("Credentials list every failure as a sentence, never quoting the password")
    func credentialsFailures() throws {
        var credentials = try Credentials(username: "alice", password: "hunter2-secret", url: URL(string: "https://example.com")!)
        #expect(credentials.validationFailures.isEmpty)
        credentials.username = ""
        credentials.url = URL(string: "ftp://user:hunter2-secret@files.example.com")!
        let messages = credentials.validationFailures.map(\.message)
        #expect(
            messages == [
                "Username must not be empty.",
                "URL must use http or https, not ftp.",
                "URL must not contain a password; store it as the password.",
            ])
        #expect(throws: KeyringError.invalidRecord(field: "username", reason: "must not be empty")) {
            try credentials.validate()
        }
    }

    @Test("A failed rule becomes the invalid-record error Keyring throws")
    func failureAsError() {
        let failure = ValidationFailure(
            field: "code", displayName: "Code", reason: "must have six digits", message: "Code must have six digits.")
        #expect(KeyringError(failure) == .invalidRecord(field: "code", reason: "must have six digits"))
    }
}
