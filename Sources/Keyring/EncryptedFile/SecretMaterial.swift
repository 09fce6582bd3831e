import Foundation

/// A `FileStoreSecret` checked and copied into secure memory, ready to make the master key.
package enum SecretMaterial: Sendable {
    case passphrase(SecureBytes)
    case key(SecureBytes)

    /// Checks `secret` and copies it into secure memory; reads a key file.
    /// - Throws: `.invalidRecord` for an empty passphrase or a key that is not 32 bytes.
    package init(_ secret: FileStoreSecret) throws {
        switch secret {
        case .passphrase(let text):
            guard !text.isEmpty else {
                throw KeyringError.invalidRecord(field: "passphrase", reason: "must not be empty")
            }
            self = .passphrase(try SecureBytes(copying: text.precomposedStringWithCanonicalMapping.utf8))
        case .key(let data):
            var bytes = Array(data)
            defer { bytes.wipe() }
            self = .key(try Self.checkedKey(bytes, field: "key", origin: "the key"))
        case .keyFile(let url):
            var bytes = try SecretFile.read(url.path, field: "key file")
            defer { bytes.wipe() }
            self = .key(try Self.checkedKey(bytes, field: "key file", origin: url.path))
        }
    }

    private static func checkedKey(_ bytes: [UInt8], field: String, origin: String) throws -> SecureBytes {
        guard bytes.count == FileStoreSecret.keyLength else {
            throw KeyringError.invalidRecord(
                field: field,
                reason: "\(origin) must hold exactly \(FileStoreSecret.keyLength) bytes, not \(bytes.count)"
            )
        }
        return try SecureBytes(copying: bytes)
    }

    var isPassphrase: Bool {
        if case .passphrase = self { return true }
        return false
    }

    /// The master key for a file with this header.
    /// - Throws: `.wrongPassphrase` when the file was made with the other kind of secret.
    package func masterKey(for header: FileHeader) throws -> SecureBytes {
        switch (self, header.keySource) {
        case (.passphrase(let passphrase), .argon2id):
            guard let parameters = header.parameters else {
                throw KeyringError.damaged(reason: "the header has no Argon2id parameters")
            }
            return try KeyDerivation.argon2id(passphrase: passphrase, salt: header.salt, parameters: parameters)
        case (.key(let key), .rawKey):
            return key
        default:
            throw KeyringError.wrongPassphrase
        }
    }
}
