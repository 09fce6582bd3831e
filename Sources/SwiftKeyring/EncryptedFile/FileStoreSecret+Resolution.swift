import KeyringCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension FileStoreSecret {
    /// The variable holding the passphrase itself.
    public static let passphraseVariable = "SWIFT_KEYRING_PASSPHRASE"
    /// The variable naming a file whose content (less one final newline) is the passphrase.
    public static let passphraseFileVariable = "SWIFT_KEYRING_PASSPHRASE_FILE"
    /// The systemd credential read from `$CREDENTIALS_DIRECTORY` (`LoadCredential=swift-keyring.passphrase:…`).
    public static let credentialName = "swift-keyring.passphrase"
    /// The variable naming a file that holds a raw 32-byte key.
    public static let keyFileVariable = "SWIFT_KEYRING_KEY_FILE"

    /// Every source `resolve` reads, in its order, as `passphraseRequired` names them.
    public static let sources = [
        "an explicit passphrase or key",
        passphraseVariable,
        passphraseFileVariable,
        "$CREDENTIALS_DIRECTORY/\(credentialName)",
        keyFileVariable,
    ]

    /// Finds the secret for the encrypted file, taking the first source that gives one:
    ///
    /// 1. `explicit`, when given;
    /// 2. `SWIFT_KEYRING_PASSPHRASE`;
    /// 3. the file named by `SWIFT_KEYRING_PASSPHRASE_FILE`, less one final newline;
    /// 4. `$CREDENTIALS_DIRECTORY/swift-keyring.passphrase`, when that file exists (systemd credentials);
    /// 5. the raw 32-byte key file named by `SWIFT_KEYRING_KEY_FILE`.
    ///
    /// Empty variables count as unset. A passphrase file (3, 4) is checked here and given
    /// back as `.passphraseFile`, so the store reads it straight into secure memory; the
    /// passphrase in `SWIFT_KEYRING_PASSPHRASE` is readable by the user's other processes
    /// in `/proc/PID/environ`, so prefer a file on shared machines.
    ///
    /// ```swift
    /// // In a systemd unit: LoadCredential=swift-keyring.passphrase:/etc/myapp/passphrase
    /// let secret = try FileStoreSecret.resolve()
    /// ```
    /// - Parameters:
    ///   - explicit: a secret the caller already has; it wins over the environment.
    ///   - environment: where the variables are read; the process's own unless a test gives another.
    /// - Throws: ``KeyringError/passphraseRequired(sources:)`` naming every source when none gives a secret;
    ///   `.invalidConfiguration` naming the variable when a passphrase file cannot be read or is empty;
    ///   `.insecurePermissions` when the passphrase file is not a regular file, belongs to another
    ///   user, is writable by its group, or other users can read or write it.
    public static func resolve(
        explicit: FileStoreSecret? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> FileStoreSecret {
        if let explicit { return explicit }
        if let passphrase = nonEmpty(environment[passphraseVariable]) {
            return .passphrase(passphrase)
        }
        // A passphrase file is checked here, so a bad one is reported under the variable that
        // named it, and read again into secure memory when a store opens.
        if let path = nonEmpty(environment[passphraseFileVariable]) {
            _ = try passphrase(inFile: path, field: passphraseFileVariable)
            return .passphraseFile(URL(fileURLWithPath: path))
        }
        if let folder = nonEmpty(environment["CREDENTIALS_DIRECTORY"]) {
            let path = URL(fileURLWithPath: folder).appendingPathComponent(credentialName).path
            if try POSIX.statIfPresent(path) != nil {
                _ = try passphrase(inFile: path, field: "$CREDENTIALS_DIRECTORY/\(credentialName)")
                return .passphraseFile(URL(fileURLWithPath: path))
            }
        }
        if let path = nonEmpty(environment[keyFileVariable]) {
            return .keyFile(URL(fileURLWithPath: path))
        }
        throw KeyringError.passphraseRequired(sources: sources)
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }

    /// The passphrase in a file, in secure memory: its text less one final `\n` or `\r\n`,
    /// which editors and `echo` add, in Unicode normalisation form C.
    ///
    /// ASCII text (normalised already) never leaves secure memory. Other text is
    /// normalised through a `String`, which leaves a copy in ordinary memory.
    /// - Throws: `.invalidConfiguration` naming `field` when the file is empty or not UTF-8, or what `SecretFile.read` throws.
    static func passphrase(inFile path: String, field: String) throws -> SecureBytes {
        return try KeyringError.translatingCrypto {
            let content = try SecretFile.read(path, field: field, what: "the passphrase file")
            let length = content.withBytes { bytes in
                var length = bytes.count
                if length > 0, bytes[length - 1] == UInt8(ascii: "\n") { length -= 1 }
                if length > 0, bytes[length - 1] == UInt8(ascii: "\r") { length -= 1 }
                return length
            }
            guard length > 0 else {
                throw KeyringError.invalidConfiguration(setting: field, reason: "the file \(path) is empty")
            }
            return try content.withBytes { bytes in
                try normalizedPassphrase(UnsafeRawBufferPointer(rebasing: bytes[..<length])) {
                    KeyringError.invalidConfiguration(setting: field, reason: "the file \(path) is not UTF-8 text")
                }
            }
        }
    }

    /// A passphrase typed into secure memory (`swift-keyring unlock` reads it so), checked and
    /// normalised as a passphrase from the other sources is, never copied into a `String` when it is ASCII.
    /// - Throws: `.invalidConfiguration` when it is empty or not UTF-8.
    package static func typedPassphrase(_ typed: SecureBytes) throws -> SecureBytes {
        try typed.withBytes { text in
            guard !text.isEmpty else {
                throw KeyringError.invalidConfiguration(setting: "passphrase", reason: "must not be empty")
            }
            return try normalizedPassphrase(text) {
                KeyringError.invalidConfiguration(setting: "passphrase", reason: "it is not UTF-8 text")
            }
        }
    }

    /// `text` as the KDF sees a passphrase, in secure memory: in Unicode normalisation form C.
    /// ASCII text (normalised already) never leaves secure memory; other text is normalised
    /// through a `String`, which leaves a copy in ordinary memory.
    /// - Throws: `notUTF8()` when `text` is not UTF-8.
    package static func normalizedPassphrase(_ text: UnsafeRawBufferPointer, notUTF8: () -> KeyringError) throws
        -> SecureBytes
    {
        guard isUTF8(text) else { throw notUTF8() }
        return try KeyringError.translatingCrypto {
            if text.allSatisfy({ $0 < 0x80 }) {
                return try SecureBytes(copying: text)
            }
            return try SecureBytes(composing: String(decoding: text, as: UTF8.self))
        }
    }

    /// Whether `bytes` are valid UTF-8, checked without making a `String` of them.
    private static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
