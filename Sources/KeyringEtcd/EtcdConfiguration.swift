import Keyring

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where an ``EtcdStore`` finds the cluster, and how it opens the records kept there.
///
/// Every field has a default read from the `SWIFT_KEYRING_ETCD_*` environment, so a
/// fleet host needs only the variables:
///
/// ```sh
/// export SWIFT_KEYRING_ETCD_ENDPOINTS=http://10.0.0.1:2379,http://10.0.0.2:2379,http://10.0.0.3:2379
/// export SWIFT_KEYRING_KEY_FILE=/etc/myapp/fleet.key     # the same 32 bytes on every host
/// ```
public struct EtcdConfiguration: Sendable {
    /// The variable holding the comma-separated client URLs of the cluster's members.
    public static let endpointsVariable = "SWIFT_KEYRING_ETCD_ENDPOINTS"
    /// The variable holding the prefix every key of the store begins with.
    public static let prefixVariable = "SWIFT_KEYRING_ETCD_PREFIX"
    /// The variable naming the etcd user, for clusters with authentication enabled.
    public static let userVariable = "SWIFT_KEYRING_ETCD_USER"
    /// The variable naming a file whose content (less one final newline) is the etcd user's password.
    public static let passwordFileVariable = "SWIFT_KEYRING_ETCD_PASSWORD_FILE"
    /// The variable naming a PEM file of the CA(s) to trust for `https://` members.
    public static let caFileVariable = "SWIFT_KEYRING_ETCD_CA_FILE"
    /// The variable naming a PEM client certificate.
    public static let certFileVariable = "SWIFT_KEYRING_ETCD_CERT_FILE"
    /// The variable naming the client certificate's PEM private key.
    public static let keyFileVariable = "SWIFT_KEYRING_ETCD_KEY_FILE"
    /// The prefix used when none is given.
    public static let defaultPrefix = "swift-keyring/"
    /// The endpoint used when none is given: a member on this host, as etcd listens by default.
    public static let defaultEndpoint = "http://127.0.0.1:2379"

    /// The members' client URLs (`http://` or `https://`), tried in turn when one does not answer.
    public var endpoints: [URL]
    /// Every key the store writes begins with this, so several keyrings (or other data) share one cluster.
    public var prefix: String
    /// The bound on every call, as one deadline from the call's start: retries on other members,
    /// the rounds of a write and a token renewal all spend it, and no request outlives it.
    public var timeout: Duration
    /// The passphrase or key that seals the records; `nil` means the sources
    /// `FileStoreSecret.resolve(explicit:environment:)` reads, in its order.
    public var secret: FileStoreSecret?
    /// Argon2id's cost when this store is the first to use the prefix with a passphrase;
    /// afterwards every host reads the cost kept in etcd.
    public var keyDerivation: Argon2idParameters
    /// The etcd user for clusters with authentication enabled, or `nil`.
    public var user: String?
    /// The file holding `user`'s password (closed to other users), or `nil`.
    public var passwordFile: URL?
    /// The CA, client certificate and key for `https://` members.
    public var tls: EtcdTLS
    /// The environment the defaults were read from, and where the secret sources are read.
    public var environment: [String: String]

    /// Creates a configuration.
    /// - Parameters:
    ///   - endpoints: the client URLs; `nil` reads `SWIFT_KEYRING_ETCD_ENDPOINTS`, else `http://127.0.0.1:2379`.
    ///   - prefix: `nil` reads `SWIFT_KEYRING_ETCD_PREFIX`, else `swift-keyring/`.
    ///   - timeout: the bound on every call, 5 seconds unless given.
    ///   - secret: the sealing passphrase or key; `nil` reads the file store's sources from `environment`.
    ///   - keyDerivation: Argon2id's cost for a new prefix opened with a passphrase.
    ///   - user: `nil` reads `SWIFT_KEYRING_ETCD_USER`.
    ///   - passwordFile: `nil` reads `SWIFT_KEYRING_ETCD_PASSWORD_FILE`.
    ///   - tls: `nil` reads `SWIFT_KEYRING_ETCD_CA_FILE`, `…_CERT_FILE` and `…_KEY_FILE`.
    ///   - environment: where the `SWIFT_KEYRING_*` variables are read from.
    /// - Throws: `KeyringError.invalidConfiguration` naming the variable when an endpoint is not an
    ///   `http` or `https` URL with a host, the prefix is empty, a TLS file is missing, or only
    ///   half of a pair (user and password file, certificate and key) is given.
    public init(
        endpoints: [URL]? = nil,
        prefix: String? = nil,
        timeout: Duration = .seconds(5),
        secret: FileStoreSecret? = nil,
        keyDerivation: Argon2idParameters = .recommended,
        user: String? = nil,
        passwordFile: URL? = nil,
        tls: EtcdTLS? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        self.endpoints = try endpoints ?? Self.parseEndpoints(environment[Self.endpointsVariable] ?? "")
        self.prefix = prefix ?? Self.nonEmpty(environment[Self.prefixVariable]) ?? Self.defaultPrefix
        self.timeout = timeout
        self.secret = secret
        self.keyDerivation = keyDerivation
        self.user = user ?? Self.nonEmpty(environment[Self.userVariable])
        self.passwordFile = passwordFile ?? Self.nonEmpty(environment[Self.passwordFileVariable]).map(URL.init(fileURLWithPath:))
        let file = { (variable: String) in Self.nonEmpty(environment[variable]).map(URL.init(fileURLWithPath:)) }
        self.tls =
            tls
            ?? EtcdTLS(
                caFile: file(Self.caFileVariable), certificateFile: file(Self.certFileVariable),
                keyFile: file(Self.keyFileVariable))
        self.environment = environment
        try validate()
    }

    /// Parses `SWIFT_KEYRING_ETCD_ENDPOINTS`: comma-separated URLs, blanks ignored; empty means the local default.
    /// - Throws: `KeyringError.invalidConfiguration` naming the variable and the bad entry.
    public static func parseEndpoints(_ text: String) throws -> [URL] {
        let words = text.split(separator: ",").map { word in
            String(word.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }.filter { !$0.isEmpty }
        guard !words.isEmpty else { return [URL(string: defaultEndpoint)!] }
        return try words.map { word in
            guard let url = URL(string: word) else { throw invalidEndpoint(quoting: word) }
            try checkEndpoint(url)
            return url
        }
    }

    /// Refuses an endpoint that is not http(s) with a host, or that carries a user
    /// name or password: etcd's user goes in `SWIFT_KEYRING_ETCD_USER`, its
    /// password in a file, and an endpoint is shown by `doctor` and in errors.
    private static func checkEndpoint(_ url: URL) throws {
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host?.isEmpty == false else {
            throw invalidEndpoint(quoting: url.absoluteString)
        }
        guard url.user == nil && url.password == nil else {
            throw KeyringError.invalidConfiguration(
                setting: endpointsVariable,
                reason: "an endpoint carries a user name or password; give the user in \(userVariable) "
                    + "and the password in a file named by \(passwordFileVariable)")
        }
    }

    /// The error for an endpoint that is not an http(s) URL with a host, quoting it
    /// unless it may hold user-info (an `@`), which is never echoed.
    private static func invalidEndpoint(quoting text: String) -> KeyringError {
        let shown = text.contains("@") ? "an entry" : "\"\(text)\""
        return .invalidConfiguration(setting: endpointsVariable, reason: "\(shown) is not an http:// or https:// URL with a host")
    }

    private func validate() throws {
        guard !endpoints.isEmpty else {
            throw KeyringError.invalidConfiguration(setting: Self.endpointsVariable, reason: "must name at least one member")
        }
        for url in endpoints {
            try Self.checkEndpoint(url)
        }
        guard !prefix.isEmpty else {
            throw KeyringError.invalidConfiguration(setting: Self.prefixVariable, reason: "must not be empty")
        }
        for (variable, file) in [
            (Self.caFileVariable, tls.caFile), (Self.certFileVariable, tls.certificateFile), (Self.keyFileVariable, tls.keyFile),
        ] {
            if let file, !FileManager.default.fileExists(atPath: file.path) {
                throw KeyringError.invalidConfiguration(setting: variable, reason: "there is no file at \(file.path)")
            }
        }
        if (tls.certificateFile == nil) != (tls.keyFile == nil) {
            throw KeyringError.invalidConfiguration(
                setting: tls.certificateFile == nil ? Self.certFileVariable : Self.keyFileVariable,
                reason: "a client certificate needs both \(Self.certFileVariable) and \(Self.keyFileVariable)")
        }
        if (user == nil) != (passwordFile == nil) {
            throw KeyringError.invalidConfiguration(
                setting: user == nil ? Self.userVariable : Self.passwordFileVariable,
                reason: "etcd authentication needs both \(Self.userVariable) and \(Self.passwordFileVariable)")
        }
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
