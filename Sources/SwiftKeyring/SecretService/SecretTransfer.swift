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

    private static let serviceInterface = "org.freedesktop.Secret.Service"

    private init(path: String, key: SecureBytes?) {
        self.path = path
        self.key = key
    }

    /// The spec's name for the key exchange and cipher this transfer uses.
    static let algorithm = "dh-ietf1024-sha256-aes128-cbc-pkcs7"

    /// The arguments of `OpenSession` ("(sv)"): the algorithm and its input (floating).
    private static func openSessionArguments(_ algorithm: String, _ input: OpaquePointer) -> OpaquePointer {
        var children: [OpaquePointer?] = [g_variant_new_string(algorithm), g_variant_new_variant(input)]
        return g_variant_new_tuple(&children, gsize(children.count))
    }

    /// `OpenSession` on its way: our half of the key exchange, and the call in flight,
    /// answered in a main context of its own, so the caller can make other calls (the
    /// search) while the daemon answers, and any thread can wait for it.
    final class Opening: @unchecked Sendable {
        private let agreement: DHKeyAgreement
        private let bus: BusConnection
        private let destination: String
        private let calls: CallsInFlight
        private let call: Int
        private var finished = false

        /// Sends `OpenSession` to `daemon` (the well-known name when `nil`) and returns at once.
        /// - Throws: `KeyringError.backend` when libgcrypt is missing or fails.
        init(bus: BusConnection, daemon: String?, deadline: Deadline) throws {
            agreement = try KeyringError.translatingCrypto { try DHKeyAgreement() }
            self.bus = bus
            destination = daemon ?? BusConnection.secretServiceName
            calls = CallsInFlight(on: bus)
            call = calls.send(
                destination: destination, path: SWIFT_KEYRING_SERVICE_PATH, interface: SecretTransfer.serviceInterface,
                method: "OpenSession",
                arguments: SecretTransfer.openSessionArguments(
                    SecretTransfer.algorithm, GVariantReading.bytes(agreement.publicValue)),
                reply: "(vo)", deadline: deadline)
        }

        /// Waits for the daemon's answer and agrees the key. The opening is spent afterwards, whatever happens.
        /// - Returns: the transfer; `nil` when this key exchange is one of the few daemons
        ///   disagree on (see `DHKeyAgreement.key(peer:)`): the daemon's session is closed
        ///   then, and the caller opens another.
        /// - Throws: `KeyringError.serviceUnavailable` when the daemon opens no transfer, or the call's errors.
        func finish(deadline: Deadline) throws -> SecretTransfer? {
            guard !finished else {
                throw KeyringError.serviceUnavailable(reason: .noDaemon(detail: "the daemon opened no session"))
            }
            finished = true
            var plain = false
            let reply = try GLibCall.run("open a Secret Service session", deadline: deadline) {
                cancellable, error -> OpaquePointer? in
                calls.waitForAll(cancellable: cancellable)
                calls.takeFailure(into: error)
                if case .reply(let reply) = calls.take(call) { return reply }
                guard let failure = error.pointee,
                    g_error_matches(failure, g_dbus_error_quark(), gint(G_DBUS_ERROR_NOT_SUPPORTED.rawValue)) != 0
                else { return nil }
                // A daemon without the key exchange: a plain transfer, as libsecret falls back to.
                g_clear_error(error)
                plain = true
                let replyType = g_variant_type_new("(vo)")
                defer { g_variant_type_free(replyType) }
                return g_dbus_connection_call_sync(
                    bus.pointer, destination, SWIFT_KEYRING_SERVICE_PATH, SecretTransfer.serviceInterface, "OpenSession",
                    SecretTransfer.openSessionArguments("plain", g_variant_new_string("")), replyType,
                    G_DBUS_CALL_FLAGS_NONE, deadline.remainingMilliseconds, cancellable, error)
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
            if plain { return SecretTransfer(path: path, key: nil) }
            let invalid = failure("the Secret Service's answer to the session's key exchange is not valid")
            guard GVariantReading.isBytes(value) else { throw invalid }
            let agreed: SecureBytes?
            do {
                agreed = try GVariantReading.withBytes(value) { try agreement.key(peer: $0) }
            } catch {
                throw invalid
            }
            guard let key = agreed else {
                close(path, deadline: deadline)
                return nil
            }
            return SecretTransfer(path: path, key: key)
        }

        /// Closes the daemon's session at `path`, which will never be used; best effort, since
        /// the daemon also closes it when our connection ends.
        private func close(_ path: String, deadline: Deadline) {
            let reply = try? bus.call(
                "close an unused Secret Service session", destination: destination, path: path,
                interface: "org.freedesktop.Secret.Session", method: "Close", arguments: nil, reply: "()",
                deadline: deadline)
            reply.map { g_variant_unref($0) }
        }
    }

    /// Whether secrets are encrypted on the bus (a key was agreed), rather than sent plain.
    var isEncrypted: Bool { key != nil }

    /// `secret` as a "(oayays)" value for this transfer (floating, for a call's arguments).
    func encode(_ secret: [UInt8], contentType: String) throws -> OpaquePointer {
        try secret.withUnsafeBytes { try encode($0, contentType: contentType) }
    }

    /// `secret`, lent by its owner (which wipes it), as a "(oayays)" value for this transfer:
    /// on an encrypted transfer no copy of the plaintext is made outside secure memory.
    func encode(_ secret: UnsafeRawBufferPointer, contentType: String) throws -> OpaquePointer {
        let (parameters, value): ([UInt8], [UInt8])
        if let key {
            (parameters, value) = try KeyringError.translatingCrypto { try AESCBC(key: key).seal(secret) }
        } else {
            (parameters, value) = ([], Array(secret))
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
