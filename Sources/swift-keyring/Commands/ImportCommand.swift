import ArgumentParser
import KeyringCommandLine
import SwiftKeyring

/// `swift-keyring import git-libsecret`
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Copy git-credential-libsecret's credentials into git-credential-swift-keyring's records.",
        discussion: """
            Reads, from the Secret Service, the items git-credential-libsecret stored (schema \
            org.git.Password since git 2.45, org.gnome.keyring.NetworkPassword before) and stores \
            each http or https one as the git helper would, with the expiry and OAuth refresh \
            token git 2.41 and later keep with it, in the service git-credential (or the one \
            --service names) of the store the options choose. The originals stay; a credential \
            already there is replaced.

              swift-keyring import git-libsecret
            """
    )

    @Argument(help: "Where the credentials come from: git-libsecret.")
    var source: String

    @OptionGroup var store: StoreOptions

    /// The schemas git-credential-libsecret stores its items with: its own since git 2.45, libsecret's
    /// compatibility network schema before.
    static let libsecretSchemas = ["org.git.Password", "org.gnome.keyring.NetworkPassword"]

    /// Why an item is skipped that is no credential the helper could answer.
    static let unusable = "not an http or https credential with a server, a user and a UTF-8 password git can take"

    func validate() throws {
        guard source == "git-libsecret" else {
            throw ValidationError("the only source is git-libsecret, not \"\(source)\"")
        }
    }

    func run() throws {
        try reportingFailures {
            let timeout = try store.configuration().timeout
            var items: [ForeignSecretServiceItems.Item] = []
            do {
                for schema in Self.libsecretSchemas {
                    items += try ForeignSecretServiceItems.search(["xdg:schema": schema], timeout: timeout)
                }
            } catch let error as KeyringError where error.code == .serviceUnavailable {
                // Another store (--backend file) cannot help: the credentials to copy are in the Secret Service.
                throw CommandFailure(
                    message: "\(error.description) git-credential-libsecret keeps its credentials in the Secret Service, "
                        + "so run the import in the session where that Secret Service runs (your desktop's); "
                        + "`swift-keyring doctor` says why it is not reachable here.",
                    status: ExitStatus.unavailable)
            }
            var target = store
            target.service = store.service ?? GitCredentialRecords.service
            let keyring = try KeyringOpener.open(target)
            var copied = 0
            var skipped: [String: Int] = [:]
            for item in items {
                guard let secret = item.secret else {
                    skipped["locked", default: 0] += 1
                    continue
                }
                guard let credential = Self.credential(of: item.attributes, secret: secret) else {
                    skipped[Self.unusable, default: 0] += 1
                    continue
                }
                try GitCredentialRecords.store(credential, in: keyring)
                copied += 1
            }
            let noun = copied == 1 ? "credential" : "credentials"
            Console.output("Copied \(copied) \(noun) from git-credential-libsecret to the service \(target.resolvedService).")
            for (reason, count) in skipped.sorted(by: { $0.key < $1.key }) {
                Console.output("Skipped \(count): \(reason).")
            }
        }
    }

    /// The credential git-credential-libsecret stored as `attributes` (`protocol`, `server`,
    /// `port` when not the default, `object` for the path, `user`) with `secret`: its password,
    /// then (git ≥ 2.45) lines `password_expiry_utc=…` and `oauth_refresh_token=…`, or
    /// (git 2.41 to 2.44) the expiry as the attribute `password_expiry_utc`. `nil` for
    /// another protocol, or a value git could not take back (a carriage return or NUL, a
    /// line that is neither of those two).
    static func credential(of attributes: [String: String], secret: [UInt8]) -> GitCredential? {
        guard let scheme = attributes["protocol"], GitCredential.isWebProtocol(scheme.utf8),
            let server = attributes["server"], !server.isEmpty, let user = attributes["user"],
            let text = String(validating: secret, as: UTF8.self)
        else { return nil }
        var host = server
        if let port = attributes["port"], !port.isEmpty, port != "0" { host += ":" + port }
        let path = attributes["object"].flatMap { $0.isEmpty ? nil : $0 }
        var credential = GitCredential(protocol: scheme, host: host, path: path, username: user)
        guard GitCredentialSecret.decode(text, into: &credential) else { return nil }
        if credential.passwordExpiryUTC == nil, let expiry = attributes["password_expiry_utc"] {
            credential.passwordExpiryUTC = expiry
        }
        // git reads an expiry that is no number as none (it never expires).
        if credential.expiry == nil { credential.passwordExpiryUTC = nil }
        let values = [user, credential.password, credential.oauthRefreshToken].compactMap { $0 }
        guard !values.contains(where: GitCredentialInput.unsafeField) else { return nil }
        return credential
    }
}
