#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension KeyringConfiguration {
    /// The setting naming which secret keys libsecret's file: `auto`, `portal` or `passphrase`.
    public static let libsecretKeyVariable = "SWIFT_KEYRING_LIBSECRET_KEY"

    /// libsecret's keyring file this configuration opens: ``libsecretFileURL``, else
    /// `LibsecretFileStore.defaultURL(environment:)` of ``environment``.
    package var resolvedLibsecretFileURL: URL {
        libsecretFileURL ?? LibsecretFileStore.defaultURL(environment: environment)
    }

    /// The key source asked for libsecret's file: ``libsecretKey``, else `SWIFT_KEYRING_LIBSECRET_KEY`, else `.auto`.
    /// - Throws: ``KeyringError/invalidConfiguration(setting:reason:)`` naming `SWIFT_KEYRING_LIBSECRET_KEY`
    ///   when it holds an unknown word.
    public func requestedLibsecretKey() throws -> LibsecretKeyChoice {
        if let libsecretKey { return libsecretKey }
        guard let word = environment[Self.libsecretKeyVariable], !word.isEmpty else { return .auto }
        guard let choice = LibsecretKeyChoice(rawValue: word) else {
            let words = LibsecretKeyChoice.allCases.map(\.rawValue).joined(separator: ", ")
            throw KeyringError.invalidConfiguration(
                setting: Self.libsecretKeyVariable, reason: "must be one of \(words), not \"\(word)\"")
        }
        return choice
    }
}
