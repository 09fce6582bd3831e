/// The keys that seal one store's records (a keyring file's, or an etcd keyspace's),
/// each derived from the master key for one purpose, so no key ever serves two
/// (see docs/FILE_FORMAT.md, "Keys").
package struct SealingKeys: Sendable {
    /// Makes the header's key check, which tells a wrong passphrase from damage.
    package let check: SecureBytes
    /// Seals each record's entry: its names and metadata.
    package let entry: SecureBytes
    /// Seals each record's secret.
    package let secret: SecureBytes
    /// Makes the MAC over the whole file.
    package let fileMAC: SecureBytes
    /// HKDF's pseudorandom key, from which each key above is expanded; kept so a
    /// store built on the file's keys (etcd's) can derive keys of its own.
    private let prk: SecureBytes

    /// Derives every key from the master key and the file's salt.
    package init(master: SecureBytes, salt: [UInt8]) throws {
        let prk = try KeyDerivation.extract(master: master, salt: salt)
        self.prk = prk
        let keys = try KeyDerivation.expand(
            prk,
            infos: [
                "swift-keyring/1 key check", "swift-keyring/1 record entry", "swift-keyring/1 record secret",
                "swift-keyring/1 file mac",
            ])
        check = keys[0]
        entry = keys[1]
        secret = keys[2]
        fileMAC = keys[3]
    }

    /// Another key from the same master key, for the purpose `info` names (HKDF-Expand),
    /// without deriving the master key again.
    package func derive(info: String) throws -> SecureBytes {
        try KeyDerivation.expand(prk, info: info)
    }
}
