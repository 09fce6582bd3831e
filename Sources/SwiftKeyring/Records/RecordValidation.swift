import KeyringValidation

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The checks ``Keyring`` applies before anything reaches a store, written with
/// the validation rules so apps see the same sentences.
///
/// Stores keep names as C strings (Secret Service attributes) and the file
/// format has length limits, so the checks refuse what would be truncated or
/// lost rather than storing it wrongly.
enum RecordValidation {
    /// The largest password, in UTF-8 bytes.
    static let maximumPasswordBytes = 1 << 20
    /// The largest generic secret, in bytes.
    static let maximumSecretBytes = 16 << 20
    /// The longest service, key, username or URL, in UTF-8 bytes.
    static let maximumNameBytes = 4096

    /// What every stored name must be: not empty, a C string, and short enough.
    ///
    /// Any other text is kept byte for byte, control characters included: other clients
    /// (secret-tool, Python's keyring) store such names, and a record they wrote must be
    /// writable back unchanged. NUL is the one exception, on every store alike, because a
    /// D-Bus string cannot carry it. Whoever prints names for a terminal escapes them.
    static func nameRules<Root>() -> [ValidationRule<Root, String>] {
        [
            .required(message: .reason("must not be empty")),
            .custom("must not contain a NUL character") { !$0.utf8.contains(0) },
            .maxLength(maximumNameBytes, in: .utf8Bytes, message: .reason("is longer than \(maximumNameBytes) bytes")),
        ]
    }

    /// The rules of credentials as they are read back: what a store may hold, written
    /// by an older version or by another program, and can still be returned as it is.
    static let storedCredentials = Validator<Credentials>()
        .field("username", \.username, rules: nameRules())
        .field("password", \.password, .maxLength(maximumPasswordBytes, in: .utf8Bytes, message: .reason("is longer than 1 MiB")))
        .field("url", \.url.absoluteString, displayName: "URL", rules: nameRules())
        .field("url", \.url, displayName: "URL", rules: urlRules)

    /// The rules of new credentials: the stored ones, and a URL without a fragment.
    static let credentials =
        storedCredentials
        .field("url", \.url, displayName: "URL", rules: newURLRules)

    /// An `http` or `https` URL with a host and no password. A URL without a
    /// scheme fails only the first rule, so it is told what is wrong once.
    private static let urlRules: [ValidationRule<Credentials, URL>] = [
        ValidationRule { url, _ in
            url.scheme == nil ? "must be absolute, with an http or https scheme" : nil
        },
        ValidationRule { url, _ in
            guard let scheme = url.scheme?.lowercased(), scheme != "http", scheme != "https" else { return nil }
            return "must use http or https, not \(scheme)"
        },
        .custom("must name a host") { url in url.scheme == nil || !(url.host ?? "").isEmpty },
        // A password in the URL would be stored as a plain, searchable attribute.
        .custom("must not contain a password; store it as the password") { $0.password == nil },
    ]

    /// What only a new URL is refused: a fragment is never sent to a server, so one in a
    /// stored URL is only a place for a secret (an OAuth `#access_token=`) to leak into.
    private static let newURLRules: [ValidationRule<Credentials, URL>] = [
        .custom("must not contain a fragment (#…)") { $0.fragment == nil }
    ]

    private static let secretSize = Validator<Int>()
        .field("secret", \.self, .custom("is longer than 16 MiB") { $0 <= maximumSecretBytes })

    /// Throws the first failure of `value` as ``KeyringError/invalidRecord(field:reason:)``.
    static func check<Root>(_ value: Root, with validator: Validator<Root>) throws {
        if let failure = validator.validate(value).first {
            throw KeyringError(failure)
        }
    }

    private static let service = Validator<String>().field("service", \.self, rules: nameRules())
    private static let key = Validator<String>().field("key", \.self, rules: nameRules())

    static func checkService(_ service: String) throws {
        guard !isValidName(service) else { return }
        try check(service, with: Self.service)
    }

    /// Whether `name` passes `nameRules`, without the validator: building one and running it
    /// the first time costs about half a million instructions (generic metadata, key paths,
    /// conformance lookups), a twentieth of a whole `swift-keyring get`. A name that fails
    /// goes through the validator, which words the error.
    private static func isValidName(_ name: String) -> Bool {
        let bytes = name.utf8
        return !bytes.isEmpty && bytes.count <= maximumNameBytes && !bytes.contains(0)
    }

    /// Checks a key that is read, written or removed.
    static func checkKey(_ key: String) throws {
        guard !isValidName(key) else { return }
        try check(key, with: Self.key)
    }

    static func checkCredentials(_ credentials: Credentials) throws {
        guard !(isValidStored(credentials) && credentials.url.fragment == nil) else { return }
        try check(credentials, with: Self.credentials)
    }

    /// Checks credentials read back from a store, as every lookup does.
    static func checkStoredCredentials(_ credentials: Credentials) throws {
        guard !isValidStored(credentials) else { return }
        try check(credentials, with: Self.storedCredentials)
    }

    /// Whether `credentials` pass `storedCredentials`, checked directly, as `isValidName`
    /// checks names: the validator's key paths and generic rules cost some 42,000 of a
    /// first Secret Service lookup's 313,000 client instructions (callgrind). Credentials
    /// that fail go through the validator, which words the error; so this must never pass
    /// what a rule there refuses.
    private static func isValidStored(_ credentials: Credentials) -> Bool {
        let url = credentials.url
        guard isValidName(credentials.username), credentials.password.utf8.count <= maximumPasswordBytes,
            isValidName(url.absoluteString), let scheme = url.scheme?.lowercased()
        else { return false }
        return (scheme == "http" || scheme == "https") && !(url.host ?? "").isEmpty && url.password == nil
    }

    static func checkSecret(_ secret: some Collection) throws {
        try check(secret.count, with: secretSize)
    }
}

extension Unicode.Scalar {
    /// Whether this is a C0 control, DEL, or a C1 control: what the tool escapes when it
    /// prints a key or username one record a line.
    package var isControlCharacter: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
    }
}
