/// Telling an item another process deleted from a call that failed for another reason,
/// when the daemon's error does not say which.
///
/// gnome-keyring and KeePassXC answer a call about a deleted item with D-Bus's "unknown
/// object", which every call on an item already takes as absent. KWallet (kwalletd5 5.103)
/// answers `Service.GetSecrets` for an item deleted since the search with a plain
/// `InvalidArgs` ("Can't find item at path …/kdewallet/477"), the error it also gives for
/// arguments that are wrong. So when that call fails, the item itself is asked: an item
/// whose own object is gone was deleted, and the read finds nothing, as on the other daemons.
extension SecretServiceClient {
    /// Whether the item at `path` is gone: a read of its `Attributes` is answered "no such
    /// object". Any other answer, a failure included, is no proof, and gives `false`.
    func itemIsGone(_ path: String, in operation: SecretOperation) -> Bool {
        do {
            let read = try item(at: path).attributes(deadline: operation.deadline)
            return try table(read.valueUnlessVanished(in: operation.step("check whether an item still exists"))) == nil
        } catch {
            return false
        }
    }

    /// `body`'s result; `nil` when it fails with a backend error and the item at `path` is
    /// gone meanwhile. Any other failure is thrown as it came.
    func absentIfGone<Value>(_ path: String, in operation: SecretOperation, _ body: () throws -> Value) throws -> Value? {
        do {
            return try body()
        } catch let error as KeyringError where error.code == .backend && !operation.deadline.hasPassed {
            if itemIsGone(path, in: operation) { return nil }
            throw error
        }
    }
}
