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
    /// A master key already derived for the file with this identity (``KeyedHeader/identity``),
    /// found in the session's kernel keyring after an unlock: it opens that file only.
    case unlocked(SecureBytes, identity: String)

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
            let key = try SecretFile.read(path, field: "key file", what: "the key file")
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
        if case .key = self { return .rawKey }
        return .argon2id
    }

    /// A header for a new store, with a fresh salt, and the keys it was made for.
    package func newHeader(parameters: Argon2idParameters) throws -> (KeyedHeader, SealingKeys) {
        let (header, keys, _) = try newHeaderKeepingMaster(parameters: parameters)
        return (header, keys)
    }

    /// ``newHeader(parameters:)`` with the master key too, which a store keeps for an unlock.
    package func newHeaderKeepingMaster(parameters: Argon2idParameters) throws -> (KeyedHeader, SealingKeys, SecureBytes) {
        var master: SecureBytes?
        let (header, keys) = try KeyringError.translatingCrypto {
            try KeyedHeader.new(keySource: keySource, parameters: parameters) { header in
                let key = try masterKey(for: header)
                master = key
                return key
            }
        }
        guard let master else { throw KeyringError.damaged(reason: "no master key was derived") }
        return (header, keys, master)
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
        case (.unlocked(let key, let identity), .argon2id) where identity == header.identity:
            return key
        default:
            throw KeyringError.wrongPassphrase
        }
    }
}
