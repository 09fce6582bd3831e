internal import KeyringCrypto
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Container registry logins as records of one service, `docker-credential`: one record per
/// server, its key the server string exactly as the client sent it (`127.0.0.1:5000`,
/// `https://index.docker.io/v1/`), compared byte for byte; no scheme, port or suffix is guessed.
///
/// The record's username is docker's (`<token>` for an identity token, as docker keeps it),
/// its password docker's `Secret`, and its URL ``url(ofServer:)``: a function of the key alone.
/// That URL is the helper's mark. A record under this service whose URL is not the one the
/// helper writes for its key (one `swift-keyring set` wrote by hand, or another program) is
/// never answered, listed or erased, as the git helper answers only keys it could have written.
package enum DockerCredentialRecords {
    /// The service of registry logins: never an app's, nor git's.
    package static let service = "docker-credential"
    /// The text the clients compare (docker-credential-helpers' `errCredentialsNotFoundMessage`).
    package static let notFoundMessage = "credentials not found in native keychain"

    /// The record's URL for `server`: the server itself when it is an http or https URL with a
    /// host, else `https://` before it; when neither makes a record's URL (a space, a password
    /// in it), `https://docker-credential.invalid/` and the server percent-encoded. Only ever a
    /// label and a mark: the key is what is compared.
    package static func url(ofServer server: String) -> URL {
        let lowered = server.lowercased()
        let plain = lowered.hasPrefix("https://") || lowered.hasPrefix("http://") ? server : "https://" + server
        if let url = URL(string: plain), (try? Credentials(username: "-", password: "", url: url)) != nil { return url }
        let encoded = PercentEncoding.encode(server, keeping: [], asciiOnly: true)
        return URL(string: "https://docker-credential.invalid/" + encoded)!
    }

    /// Why `server` cannot be a record's key, or `nil` when it can: empty, or holding a control
    /// character (a line break would forge a line of `list`'s output or of a log).
    package static func problem(withServer server: String) -> String? {
        if server.isEmpty { return "ServerURL is missing (no credentials server URL)" }
        if server.unicodeScalars.contains(where: \.isControlCharacter) {
            return "ServerURL holds a control character (a line break, carriage return, tab or NUL), which no registry's name has"
        }
        return nil
    }

    /// Whether a record listed under `key` with `url` is one this helper wrote.
    package static func isHelpers(key: String, url: URL) -> Bool {
        problem(withServer: key) == nil && url.absoluteString == self.url(ofServer: key).absoluteString
    }

    /// `store`: keeps `secret` (wiped once written) for `server`, replacing what the helper held for it.
    /// A record of another writer under the same key is replaced too: the client asked for this login.
    package static func store(
        server: String, username: String, secret: consuming [UInt8], sync: Bool, in keyring: Keyring
    ) throws {
        let record: Credentials
        do {
            record = try Credentials(username: username, password: "", url: url(ofServer: server), syncEnabled: sync)
        } catch {
            secret.wipe()
            throw error
        }
        // Handed over, not copied: the keyring wipes the one buffer once it is written.
        try keyring.set(record, passwordBytes: consume secret, forKey: server)
    }

    /// `get`: the username and the secret's bytes (the caller wipes them) of the helper's record for
    /// `server`; `nil` when there is none, or the record there is not the helper's (said to `report`).
    package static func find(
        server: String, in keyring: Keyring, report: (String) -> Void = { Console.error($0) }
    ) throws -> (username: String, secret: [UInt8])? {
        guard var found = try keyring.credentialsAndPasswordBytes(forKey: server) else { return nil }
        guard isHelpers(key: server, url: found.credentials.url) else {
            found.password.wipe()
            report(
                "Passed over the record \(server): docker-credential-swift-keyring did not write it (its URL is not the helper's)."
            )
            return nil
        }
        return (found.credentials.username, found.password)
    }

    /// `erase`: removes the helper's record for `server`; `false` when there was none (not an error,
    /// as for the reference helpers), and a record another writer made is left alone.
    @discardableResult
    package static func erase(server: String, in keyring: Keyring) throws -> Bool {
        // The record with its password as bytes, wiped at once: only its URL is looked at.
        guard var found = try keyring.credentialsAndPasswordBytes(forKey: server) else { return false }
        found.password.wipe()
        guard isHelpers(key: server, url: found.credentials.url) else { return false }
        return try keyring.remove(forKey: server)
    }

    /// `list`: server → username of the helper's records, in byte order of the servers.
    package static func list(in keyring: Keyring) throws -> [(server: String, username: String)] {
        try keyring.list()
            .filter { isHelpers(key: $0.key, url: $0.url) }
            .map { ($0.key, $0.username) }
            .sorted { $0.server.utf8.lexicographicallyPrecedes($1.server.utf8) }
    }
}
