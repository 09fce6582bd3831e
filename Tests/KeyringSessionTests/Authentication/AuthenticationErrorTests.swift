import Foundation
import HTTPTypes
import KeyringAuthentication
import KeyringSession
import Testing

@Suite("Authentication errors")
struct AuthenticationErrorTests {
    @Test(
        "localizedDescription is the error's sentence",
        arguments: [
            AuthenticationError.sessionExpired(.noStoredCredentials),
            .sessionExpired(.credentialsRefused),
            .loginRefused(status: .unauthorized),
            .loginRefused(status: nil),
            .unexpectedStatus(.internalServerError),
        ])
    func localizedDescription(error: AuthenticationError) {
        let asError: any Error = error
        #expect(asError.localizedDescription == error.description)
        #expect(!asError.localizedDescription.contains("could not be completed"))
    }

    @Test("A refused login reads as one sentence")
    func refusedSentence() {
        let error: any Error = AuthenticationError.loginRefused(status: .forbidden)
        #expect(error.localizedDescription == "The server refused the credentials (403).")
    }
}
