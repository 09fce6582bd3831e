/// What the crypto layer throws. It knows nothing of stores, so each store turns it
/// into the error its users see, naming itself (a damaged file, a damaged etcd record).
package enum CryptoError: Error, Sendable, Equatable {
    /// libgcrypt failed, or is too old: its error code (0 when it gave none) and what was being done.
    case library(code: Int, message: String)
    /// libgcrypt could not be loaded: the loader's sentence, naming `libgcrypt.so.20`.
    case libraryMissing(detail: String)
    /// Bytes that do not authenticate or do not decode; `reason` names what is wrong and never holds a secret.
    case damaged(reason: String)
    /// The keys do not open what they were asked to: a wrong passphrase or key.
    case wrongKey
}
