internal import KeyringCrypto

/// What `store` reads: docker-credential-helpers' `Credentials` object, `ServerURL`, `Username`
/// and `Secret`, with the secret kept as bytes (never a `String`) for the caller to wipe.
///
/// Every member must be there (the reference needs only the first two, and stores an empty
/// secret it then cannot find); the server must be a key the helper keeps
/// (``DockerCredentialRecords/problem(withServer:)``), the username a record's (no NUL).
/// Each refusal names the member and the reason, never its value.
package struct DockerStoreRequest {
    /// The protocol's member names, as the reference's Go structure spells them.
    package static let memberNames = ["ServerURL", "Username", "Secret"]

    package var server: String
    package var username: String
    /// The secret's bytes: the caller wipes them, or takes them with ``takeSecret()``.
    package var secret: [UInt8]

    /// Reads the object in `input`.
    /// - Throws: `CommandFailure` (status 65) naming the member and the reason.
    package init(_ input: [UInt8]) throws {
        var members: [String: [UInt8]]
        do {
            members = try DockerCredentialJSON.strings(named: Self.memberNames, in: input)
        } catch let refusal as DockerCredentialJSON.Refusal {
            throw DockerCredentialHelper.refusal(refusal.reason)
        }
        do {
            for name in Self.memberNames where members[name] == nil {
                throw DockerCredentialHelper.refusal("\(name) is missing")
            }
            // Not secrets: the server is the record's key and the username its plain attribute.
            server = String(decoding: members["ServerURL"]!, as: UTF8.self)
            username = String(decoding: members["Username"]!, as: UTF8.self)
            if let problem = DockerCredentialRecords.problem(withServer: server) {
                throw DockerCredentialHelper.refusal(problem)
            }
            if username.isEmpty { throw DockerCredentialHelper.refusal("Username is empty (no credentials username)") }
            if username.utf8.contains(0) { throw DockerCredentialHelper.refusal("Username holds a NUL character") }
        } catch {
            for name in members.keys { members[name]?.wipe() }
            throw error
        }
        secret = members.removeValue(forKey: "Secret")!
    }

    /// The secret's bytes, leaving this request an empty secret.
    package mutating func takeSecret() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &secret)
        return taken
    }

    /// The member whose string `input` ends inside (a cut input), if any.
    package static func memberCut(in input: [UInt8]) -> String? {
        do {
            var members = try DockerCredentialJSON.strings(named: memberNames, in: input)
            for name in members.keys { members[name]?.wipe() }
            return nil
        } catch let refusal as DockerCredentialJSON.Refusal {
            return refusal.unterminatedField
        } catch {
            return nil
        }
    }
}
