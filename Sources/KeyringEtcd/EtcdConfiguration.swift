import SwiftKeyring

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
    /// The variable that, set to `1` (or `true`, `yes`), lets etcd's user and password travel over `http://`.
    public static let allowInsecureAuthenticationVariable = "SWIFT_KEYRING_ETCD_ALLOW_INSECURE_AUTH"
    /// The variable naming the proxy to reach the members through; without it, none is used.
    public static let proxyVariable = "SWIFT_KEYRING_ETCD_PROXY"
    /// The variable naming the folder where this host keeps what it has seen of the cluster.
    public static let stateFolderVariable = "SWIFT_KEYRING_ETCD_STATE_DIR"
    /// The variables libcurl would read a proxy from, were the store not to tell it otherwise.
    public static let environmentProxyVariables = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
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
    /// Whether `user` and its password may be sent over `http://` members, in clear. `false` by
    /// default: such a configuration is refused, as one mixing `http://` and `https://` members
    /// always is when authenticating (the token one member gives would go to the others in clear).
    public var allowsInsecureAuthentication: Bool
    /// The proxy (`http://`, `https://`, `socks5://`, `socks5h://`…) the members are reached through,
    /// or `nil` for none. `http_proxy`, `https_proxy` and `all_proxy` are never read: a proxy a login
    /// environment sets for browsing would see every request, and over `http://` the token in it.
    public var proxy: URL?
    /// Where this host keeps what it has seen of each etcd keyring (the sealing header it first
    /// opened, the highest version of each record), so a cluster that hands back older data is
    /// caught; `nil` means `$XDG_STATE_HOME/swift-keyring/+etcd` (`~/.local/state/…`).
    public var stateFolder: URL?
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
    ///   - allowsInsecureAuthentication: `nil` reads `SWIFT_KEYRING_ETCD_ALLOW_INSECURE_AUTH`, else `false`.
    ///   - proxy: `nil` reads `SWIFT_KEYRING_ETCD_PROXY`, else no proxy.
    ///   - stateFolder: `nil` reads `SWIFT_KEYRING_ETCD_STATE_DIR`, else the XDG state folder.
    ///   - environment: where the `SWIFT_KEYRING_*` variables are read from.
    /// - Throws: `KeyringError.invalidConfiguration` naming the variable when an endpoint is not an
    ///   `http` or `https` URL with a host, the prefix is empty, a TLS file is missing, only
    ///   half of a pair (user and password file, certificate and key) is given, a user is given with
    ///   `http://` members (unless insecure authentication is allowed) or with members of both schemes,
    ///   the proxy is not a URL with a host, or `keyDerivation` costs more than an etcd store accepts.
    public init(
        endpoints: [URL]? = nil,
        prefix: String? = nil,
        timeout: Duration = .seconds(5),
        secret: FileStoreSecret? = nil,
        keyDerivation: Argon2idParameters = .recommended,
        user: String? = nil,
        passwordFile: URL? = nil,
        tls: EtcdTLS? = nil,
        allowsInsecureAuthentication: Bool? = nil,
        proxy: URL? = nil,
        stateFolder: URL? = nil,
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
        self.allowsInsecureAuthentication =
            try allowsInsecureAuthentication ?? Self.flag(environment[Self.allowInsecureAuthenticationVariable])
        self.proxy = try proxy ?? Self.nonEmpty(environment[Self.proxyVariable]).map(Self.parseProxy)
        self.stateFolder = stateFolder ?? file(Self.stateFolderVariable)
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

    /// Reads a yes/no variable: `1`, `true`, `yes` or `0`, `false`, `no` (any case); unset or empty is no.
    private static func flag(_ value: String?) throws -> Bool {
        switch value?.lowercased() {
        case nil, "", "0", "false", "no": return false
        case "1", "true", "yes": return true
        default:
            throw KeyringError.invalidConfiguration(
                setting: allowInsecureAuthenticationVariable, reason: "must be 1 or 0 (true or false, yes or no)")
        }
    }

    /// Parses `SWIFT_KEYRING_ETCD_PROXY`, quoting it in an error unless it may hold user-info.
    private static func parseProxy(_ text: String) throws -> URL {
        guard let url = URL(string: text) else { throw invalidProxy(quoting: text) }
        try checkProxy(url)
        return url
    }

    private static func checkProxy(_ url: URL) throws {
        let schemes = ["http", "https", "socks4", "socks4a", "socks5", "socks5h"]
        guard let scheme = url.scheme?.lowercased(), schemes.contains(scheme), url.host?.isEmpty == false else {
            throw invalidProxy(quoting: url.absoluteString)
        }
    }

    private static func invalidProxy(quoting text: String) -> KeyringError {
        let shown = text.contains("@") ? "the value" : "\"\(text)\""
        return .invalidConfiguration(
            setting: proxyVariable, reason: "\(shown) is not an http://, https:// or socks5:// proxy URL with a host")
    }

    /// The proxy as `doctor` may show it: without a user name or password.
    public var proxyDescription: String? {
        guard let proxy else { return nil }
        guard proxy.user != nil || proxy.password != nil, var parts = URLComponents(url: proxy, resolvingAgainstBaseURL: false)
        else { return proxy.absoluteString }
        parts.user = nil
        parts.password = nil
        return parts.string ?? "a proxy"
    }

    /// Refuses what would send etcd's password or token where others can read it.
    private func checkAuthentication() throws {
        guard user != nil else { return }
        let schemes = Set(endpoints.compactMap { $0.scheme?.lowercased() })
        if schemes.count > 1 {
            throw KeyringError.invalidConfiguration(
                setting: Self.endpointsVariable,
                reason: "it mixes http:// and https:// members while \(Self.userVariable) is set: the token one member "
                    + "gives would be sent to the others in clear; give every member as https://")
        }
        if schemes == ["http"] && !allowsInsecureAuthentication {
            throw KeyringError.invalidConfiguration(
                setting: Self.endpointsVariable,
                reason: "etcd authentication (\(Self.userVariable)) over http:// would send the password and the token "
                    + "unencrypted; give the members as https://, or set \(Self.allowInsecureAuthenticationVariable)=1 "
                    + "to accept that")
        }
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
        try checkAuthentication()
        if let proxy { try Self.checkProxy(proxy) }
        if let problem = keyDerivation.problem ?? EtcdStore.costProblem(keyDerivation) {
            throw KeyringError.invalidConfiguration(setting: "keyDerivation", reason: problem)
        }
    }

    /// The folder of this host's memory of the cluster: `stateFolder`, else `$XDG_STATE_HOME/swift-keyring/+etcd`.
    ///
    /// The `+` keeps it apart from the session layer's folders beside it, one per service, whose
    /// names never hold one.
    var resolvedStateFolder: String {
        stateFolder?.path ?? XDGBaseDirectory.state.path(environment: environment) + "/swift-keyring/+etcd"
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
