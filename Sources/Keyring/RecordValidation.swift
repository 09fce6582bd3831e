import Foundation

/// The checks `Keyring` applies before anything reaches a store.
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

    static func checkName(_ value: String, field: String) throws {
        if value.isEmpty {
            throw KeyringError.invalidRecord(field: field, reason: "must not be empty")
        }
        if value.utf8.contains(0) {
            throw KeyringError.invalidRecord(field: field, reason: "must not contain a NUL character")
        }
        if value.utf8.count > maximumNameBytes {
            throw KeyringError.invalidRecord(field: field, reason: "is longer than \(maximumNameBytes) bytes")
        }
    }

    static func checkService(_ service: String) throws {
        try checkName(service, field: "service")
    }

    static func checkKey(_ key: String) throws {
        try checkName(key, field: "key")
    }

    static func checkUsername(_ username: String) throws {
        try checkName(username, field: "username")
    }

    static func checkPassword(_ password: String) throws {
        if password.utf8.count > maximumPasswordBytes {
            throw KeyringError.invalidRecord(field: "password", reason: "is longer than 1 MiB")
        }
    }

    static func checkSecret(_ secret: some Collection) throws {
        if secret.count > maximumSecretBytes {
            throw KeyringError.invalidRecord(field: "secret", reason: "is longer than 16 MiB")
        }
    }

    static func checkURL(_ url: URL) throws {
        let text = url.absoluteString
        if text.isEmpty {
            throw KeyringError.invalidRecord(field: "url", reason: "must not be empty")
        }
        guard let scheme = url.scheme?.lowercased() else {
            throw KeyringError.invalidRecord(field: "url", reason: "must be absolute, with an http or https scheme")
        }
        guard scheme == "http" || scheme == "https" else {
            throw KeyringError.invalidRecord(field: "url", reason: "must use http or https, not \(scheme)")
        }
        guard let host = url.host, !host.isEmpty else {
            throw KeyringError.invalidRecord(field: "url", reason: "must name a host")
        }
        // A password in the URL would be stored as a plain, searchable attribute.
        if url.password != nil {
            throw KeyringError.invalidRecord(field: "url", reason: "must not contain a password; store it as the password")
        }
        try checkName(text, field: "url")
    }
}
