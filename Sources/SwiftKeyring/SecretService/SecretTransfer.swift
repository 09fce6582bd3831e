internal import CLibSecretShims
internal import KeyringCrypto

/// How secrets cross the bus to and from one daemon: what the Secret Service
/// specification calls a session (`OpenSession`), named otherwise here because
/// "session" is the login-session layer's word.
///
/// `dh-ietf1024-sha256-aes128-cbc-pkcs7`: a key agreed with the daemon
/// (``DHKeyAgreement``, with a short private exponent), each secret AES-128-CBC
/// encrypted under it with a fresh IV. A daemon without the key exchange gets a
/// plain transfer, as libsecret falls back to. The key lives in libgcrypt's secure
/// memory, and so does every secret's plaintext while it is encoded or decoded,
/// whenever the pool has room (a large secret may not fit, and goes to ordinary
/// memory, wiped all the same).
final class SecretTransfer: Sendable {
    /// The transfer's object path on the daemon, which GetSecrets, SetSecret and CreateItem name.
    let path: String
    /// `nil` for a plain transfer.
    private let key: SecureBytes?

    private init(path: String, key: SecureBytes?) {
        self.path = path
        self.key = key
    }

    /// `OpenSession` on its way: our half of the key exchange, and the call in flight.
    final class Opening: @unchecked Sendable {
        private let agreement: DHKeyAgreement
        /// Owned here until `finish` hands it to C, which frees it.
        private var call: OpaquePointer?

        /// Sends `OpenSession` to `daemon` (the well-known name when `nil`) and returns at once.
        /// - Throws: `KeyringError.backend` when libgcrypt is missing or fails.
        init(bus: BusConnection, daemon: String?, deadline: Deadline) throws {
            agreement = try KeyringError.translatingCrypto { try DHKeyAgreement() }
            let value = agreement.publicValue
            call = swift_keyring_session_start(
                bus.pointer, daemon, deadline.remainingMilliseconds, value, gsize(value.count))
        }

        deinit {
            if let call { swift_keyring_session_opening_free(call) }
        }

        /// Waits for the daemon's answer and agrees the key. The opening is spent afterwards, whatever happens.
        /// - Throws: `KeyringError.serviceUnavailable` when the daemon opens no transfer, or the call's errors.
        func finish(deadline: Deadline) throws -> SecretTransfer {
            guard let call else {
                throw KeyringError.serviceUnavailable(reason: .noDaemon(detail: "the daemon opened no session"))
            }
            self.call = nil
            var plain: gboolean = 0
            let reply = try GLibCall.run("open a Secret Service session", deadline: deadline) { cancellable, error in
                swift_keyring_session_finish(call, cancellable, &plain, error)
            }
            guard let reply else {
                throw KeyringError.serviceUnavailable(reason: .noDaemon(detail: "the daemon opened no session"))
            }
            defer { g_variant_unref(reply) }
            // "(vo)": the daemon's output (its public value, or "" for plain) and the transfer's path.
            let output = GVariantReading.child(reply, 0)
            defer { g_variant_unref(output) }
            let value = g_variant_get_variant(output)!
            defer { g_variant_unref(value) }
            let path = GVariantReading.string(reply, 1)
            if plain != 0 { return SecretTransfer(path: path, key: nil) }
            guard GVariantReading.isBytes(value),
                let key = try? GVariantReading.withBytes(value, { try agreement.key(peer: $0) })
            else {
                throw failure("the Secret Service's answer to the session's key exchange is not valid")
            }
            return SecretTransfer(path: path, key: key)
        }
    }

    /// `secret` as a "(oayays)" value for this transfer (floating, for a call's arguments).
    func encode(_ secret: [UInt8], contentType: String) throws -> OpaquePointer {
        let (parameters, value): ([UInt8], [UInt8])
        if let key {
            (parameters, value) = try KeyringError.translatingCrypto {
                try secret.withUnsafeBytes { try AESCBC(key: key).seal($0) }
            }
        } else {
            (parameters, value) = ([], secret)
        }
        var children: [OpaquePointer?] = [
            g_variant_new_object_path(path),
            GVariantReading.bytes(parameters),
            GVariantReading.bytes(value),
            g_variant_new_string(contentType),
        ]
        return g_variant_new_tuple(&children, gsize(children.count))
    }

    /// The secret in a "(oayays)" value the daemon sent for this transfer, decrypted.
    /// - Throws: `KeyringError.backend` when it cannot be decrypted.
    func decode(_ secret: OpaquePointer) throws -> [UInt8] {
        let parameters = GVariantReading.child(secret, 1)
        let value = GVariantReading.child(secret, 2)
        defer {
            g_variant_unref(parameters)
            g_variant_unref(value)
        }
        guard let key else { return GVariantReading.withBytes(value) { Array($0) } }
        do {
            let plain = try GVariantReading.withBytes(parameters) { iv in
                try GVariantReading.withBytes(value) { ciphertext in
                    try AESCBC(key: key).open(iv: iv, ciphertext: ciphertext)
                }
            }
            return plain.withBytes { Array($0) }
        } catch {
            throw failure("the Secret Service sent a secret this session cannot decrypt")
        }
    }
}

/// The error a transfer that cannot be made or read gives: the one it gave when this was
/// C code and the failure a `G_IO_ERROR_FAILED` (see `GLibFailure`), so programs see no change.
private func failure(_ message: String) -> KeyringError {
    .backend(domain: "g-io-error-quark", code: 0, message: message)
}
