package import KeyringCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A ``FileStoreSecret`` checked and copied into secure memory, ready to make the master key.
package enum SecretMaterial: Sendable {
    case passphrase(SecureBytes)
    case key(SecureBytes)

    /// Checks `secret` and copies it into secure memory; reads a key file.
    /// - Throws: `.invalidConfiguration` for an empty passphrase or a key that is not 32 bytes.
    package init(_ secret: FileStoreSecret) throws {
        switch secret {
        case .passphrase(let text):
            guard !text.isEmpty else {
                throw KeyringError.invalidConfiguration(setting: "passphrase", reason: "must not be empty")
            }
            self = .passphrase(try KeyringError.translatingCrypto { try SecureBytes(composing: text) })
        case .passphraseFile(let url):
            self = .passphrase(try FileStoreSecret.passphrase(inFile: PathName.path(of: url), field: "passphrase file"))
        case .key(let data):
            var bytes = Array(data)
            defer { bytes.wipe() }
            self = .key(try Self.checkedKey(bytes, field: "key", origin: "the key"))
        case .keyFile(let url):
            let path = PathName.path(of: url)
            let key = try SecretFile.read(path, field: "key file")
            try Self.checkLength(key.count, field: "key file", origin: path)
            self = .key(key)
        }
    }

    private static func checkedKey(_ bytes: [UInt8], field: String, origin: String) throws -> SecureBytes {
        try checkLength(bytes.count, field: field, origin: origin)
        return try KeyringError.translatingCrypto { try SecureBytes(copying: bytes) }
    }

    private static func checkLength(_ count: Int, field: String, origin: String) throws {
        guard count == FileStoreSecret.keyLength else {
            throw KeyringError.invalidConfiguration(
                setting: field,
                reason: "\(origin) must hold exactly \(FileStoreSecret.keyLength) bytes, not \(count)"
            )
        }
    }

    /// How a header made for this secret derives its master key.
    package var keySource: KeyedHeader.KeySource {
        if case .passphrase = self { return .argon2id }
        return .rawKey
    }

    /// A header for a new store, with a fresh salt, and the keys it was made for.
    package func newHeader(parameters: Argon2idParameters) throws -> (KeyedHeader, SealingKeys) {
        try KeyringError.translatingCrypto {
            try KeyedHeader.new(keySource: keySource, parameters: parameters) { try masterKey(for: $0) }
        }
    }

    /// The master key for a file with this header.
    /// - Throws: `.wrongPassphrase` when the file was made with the other kind of secret.
    package func masterKey(for header: KeyedHeader) throws -> SecureBytes {
        switch (self, header.keySource) {
        case (.passphrase(let passphrase), .argon2id):
            guard let parameters = header.parameters else {
                throw KeyringError.damaged(reason: "the header has no Argon2id parameters")
            }
            return try KeyringError.translatingCrypto {
                try KeyDerivation.argon2id(passphrase: passphrase, salt: header.salt, parameters: parameters)
            }
        case (.key(let key), .rawKey):
            return key
        default:
            throw KeyringError.wrongPassphrase
        }
    }
}
