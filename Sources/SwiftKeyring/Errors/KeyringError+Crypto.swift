package import KeyringCrypto

extension KeyringError {
    /// The error a store's users see for what the crypto layer threw.
    package init(_ error: CryptoError) {
        switch error {
        case .library(let code, let message): self = .backend(domain: "libgcrypt", code: code, message: message)
        case .libraryMissing(let detail): self = .serviceUnavailable(reason: .libraryMissing(detail: detail))
        case .damaged(let reason): self = .damaged(reason: reason)
        case .wrongKey: self = .wrongPassphrase
        }
    }

    /// Runs `body`, turning what the crypto layer throws into a ``KeyringError``:
    /// the crypto layer knows no store, so each store's entry points translate.
    package static func translatingCrypto<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as CryptoError {
            throw KeyringError(error)
        }
    }
}
