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

    /// The spec's name for the key exchange and cipher this transfer uses.
    static let algorithm = "dh-ietf1024-sha256-aes128-cbc-pkcs7"

    /// `OpenSession` on its way: our half of the key exchange, and the call in flight,
    /// so the caller can make other calls (the search) while the daemon answers, and any
    /// thread can wait for it.
    final class Opening: @unchecked Sendable {
        private let agreement: DHKeyAgreement
        /// The service of the daemon it went to.
        private let service: ServiceInterface
        private let call: PendingReply<SecretReplies.Opened>
        private var finished = false

        /// Sends `OpenSession` to `daemon`, its unique name, and returns at once.
        /// - Throws: `KeyringError.backend` when libgcrypt is missing or fails, or the send's errors.
        init(bus: BusConnection, daemon: String, deadline: Deadline) throws {
            // The one place a key pair for the bus is made.
            let agreement = try KeyringError.translatingCrypto { try DHKeyAgreement() }
            self.agreement = agreement
            service = ServiceInterface(bus: bus, daemon: daemon)
            call = try service.openSession(SecretTransfer.algorithm, deadline: deadline) {
                $0.variant("ay") { $0.byteArray(agreement.publicValue) }
            }
        }

        deinit {
            // An opening never finished: its reply, when it comes, is dropped.
            if !finished { call.forget() }
        }

        /// Waits for the daemon's answer and agrees the key. The opening is spent afterwards, whatever happens.
        /// - Returns: the transfer; `nil` when this key exchange is one of the few daemons
        ///   disagree on (see `DHKeyAgreement.key(peer:)`): the daemon's session is closed
        ///   then, and the caller opens another.
        /// - Throws: `KeyringError.serviceUnavailable` when the daemon opens none, or the call's errors.
        func finish(deadline: Deadline) throws -> SecretTransfer? {
            guard !finished else {
                throw KeyringError.serviceUnavailable(reason: .noDaemon(detail: "the daemon opened no session"))
            }
            finished = true
            let asked = "open a Secret Service session"
            var answered = call
            var reply = try answered.reply(asked: asked, deadline: deadline)
            var plain = false
            if reply.kind == .error && reply.errorName == SecretServiceNames.notSupportedError {
                // A daemon without the key exchange: a plain transfer, as libsecret falls back to.
                plain = true
                answered = try service.openSession("plain", deadline: deadline) { $0.variant("s") { $0.string("") } }
                reply = try answered.reply(asked: asked, deadline: deadline)
            }
            // The daemon's output (its public value, or "" for plain) and the transfer's path.
            let opened = try answered.value(of: reply)
            let path = opened.path
            if plain { return SecretTransfer(path: path, key: nil) }
            guard let peer = opened.output else {
                throw failure("the Secret Service's answer to the session's key exchange is not valid")
            }
            let agreed: SecureBytes?
            do {
                agreed = try peer.withUnsafeBytes { try agreement.key(peer: $0) }
            } catch {
                throw failure("the Secret Service's answer to the session's key exchange is not valid")
            }
            guard let key = agreed else {
                // Never used; best effort, since the daemon also closes it when our connection ends.
                try? SessionInterface(object: service.object.at(path)).close(
                    asked: "close an unused Secret Service session", deadline: deadline)
                return nil
            }
            return SecretTransfer(path: path, key: key)
        }
    }

    /// Whether secrets are encrypted on the bus (a key was agreed), rather than sent plain.
    var isEncrypted: Bool { key != nil }

    /// A secret as it crosses the bus: the `(oayays)` struct of the specification.
    struct Encoded {
        let session: String
        var parameters: [UInt8]
        var value: [UInt8]
        let contentType: String

        /// Writes the struct as an argument.
        func write(into arguments: inout WireWriter) {
            arguments.fields {
                $0.string(session)
                $0.byteArray(parameters)
                $0.byteArray(value)
                $0.string(contentType)
            }
        }

        /// Overwrites the value: on a plain transfer, it is the secret itself.
        mutating func wipe() {
            value.wipe()
        }
    }

    /// `secret` encoded for this transfer.
    func encode(_ secret: [UInt8], contentType: String) throws -> Encoded {
        try secret.withUnsafeBytes { try encode($0, contentType: contentType) }
    }

    /// `secret`, lent by its owner (which wipes it), encoded for this transfer: on an
    /// encrypted transfer no copy of the plaintext is made outside secure memory.
    func encode(_ secret: UnsafeRawBufferPointer, contentType: String) throws -> Encoded {
        let (parameters, value): ([UInt8], [UInt8])
        if let key {
            (parameters, value) = try KeyringError.translatingCrypto { try AESCBC(key: key).seal(secret) }
        } else {
            (parameters, value) = ([], Array(secret))
        }
        return Encoded(session: path, parameters: parameters, value: value, contentType: contentType)
    }

    /// The secret of a `(oayays)` struct the daemon sent for this transfer, decrypted; its value's bytes wiped.
    /// - Throws: `KeyringError.backend` when it cannot be decrypted.
    func decode(_ secret: Encoded) throws -> [UInt8] {
        let parameters = secret.parameters
        var value = secret.value
        // A secret is ours only when it was encoded for the session we opened.
        guard secret.session == path else {
            Self.wipeShared(value)
            throw failure("the Secret Service sent a secret for another session than the one opened (\(path))")
        }
        guard let key else {
            // A plain transfer: the value is the secret, and its bytes are the reply's own (an
            // array's copy shares them). The caller gets a copy of its own to wipe; the bytes
            // the reply was read into are wiped here, where they were received.
            let secret = value.withUnsafeBytes { Array($0) }
            Self.wipeShared(value)
            return secret
        }
        defer { value.wipe() }
        do {
            let plain = try parameters.withUnsafeBytes { iv in
                try value.withUnsafeBytes { try AESCBC(key: key).open(iv: iv, ciphertext: $0) }
            }
            return plain.withBytes { Array($0) }
        } catch {
            throw failure("the Secret Service sent a secret this session cannot decrypt")
        }
    }
}

extension SecretTransfer {
    /// Overwrites the bytes `value` and every copy of it share (the reply's value, read once
    /// from the receive buffer), which `wipe()` would copy first rather than overwrite while
    /// the reply still holds them.
    static func wipeShared(_ value: [UInt8]) {
        value.withUnsafeBytes { shared in
            guard let start = shared.baseAddress else { return }
            UnsafeMutableRawPointer(mutating: start).initializeMemory(as: UInt8.self, repeating: 0, count: shared.count)
        }
    }
}

/// The error a transfer that cannot be made or read gives: the client's own, named by what it is.
private func failure(_ message: String) -> KeyringError {
    BusFailure.invalidReply(message)
}
