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
            org.gnome.keyring.NetworkPassword) and stores each http or https one as the git helper \
            would, in the service git-credential of the store the options choose. The originals \
            stay; a credential already there is replaced.

              swift-keyring import git-libsecret
            """
    )

    @Argument(help: "Where the credentials come from: git-libsecret.")
    var source: String

    @OptionGroup var store: StoreOptions

    /// The schema git-credential-libsecret stores its items with (libsecret's compatibility network schema).
    static let libsecretSchema = "org.gnome.keyring.NetworkPassword"

    func validate() throws {
        guard source == "git-libsecret" else {
            throw ValidationError("the only source is git-libsecret, not \"\(source)\"")
        }
    }

    func run() throws {
        try reportingFailures {
            let timeout = try store.configuration().timeout
            let items = try ForeignSecretServiceItems.search(["xdg:schema": Self.libsecretSchema], timeout: timeout)
            var target = store
            target.service = GitCredentialRecords.service
            let keyring = try KeyringOpener.open(target)
            var copied = 0
            var skipped: [String: Int] = [:]
            for item in items {
                guard let secret = item.secret else {
                    skipped["locked", default: 0] += 1
                    continue
                }
                guard let credential = Self.credential(of: item.attributes, secret: secret) else {
                    skipped["not an http or https credential with a server, a user and a UTF-8 password", default: 0] += 1
                    continue
                }
                try GitCredentialRecords.store(credential, in: keyring)
                copied += 1
            }
            let noun = copied == 1 ? "credential" : "credentials"
            Console.output(
                "Copied \(copied) \(noun) from git-credential-libsecret to the service \(GitCredentialRecords.service).")
            for (reason, count) in skipped.sorted(by: { $0.key < $1.key }) {
                Console.output("Skipped \(count): \(reason).")
            }
        }
    }

    /// The credential git-credential-libsecret stored as `attributes` (`protocol`, `server`,
    /// `port` when not the default, `object` for the path, `user`) with `secret` as its password.
    static func credential(of attributes: [String: String], secret: [UInt8]) -> GitCredential? {
        guard let scheme = attributes["protocol"], GitCredential.protocols.contains(scheme),
            let server = attributes["server"], !server.isEmpty, let user = attributes["user"],
            let password = String(validating: secret, as: UTF8.self)
        else { return nil }
        var host = server
        if let port = attributes["port"], !port.isEmpty, port != "0" { host += ":" + port }
        let path = attributes["object"].flatMap { $0.isEmpty ? nil : $0 }
        return GitCredential(protocol: scheme, host: host, path: path, username: user, password: password)
    }
}
