#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// `dump`, `print(Mirror(reflecting:))` and the debugger walk a value's stored
// properties through its mirror and ignore `description`; these mirrors give
// every type that holds a password, a secret, a passphrase or a key the same
// fields with the secret replaced by its length.

/// The text that stands for a secret of `count` bytes.
package func hiddenSecret(bytes count: Int) -> String {
    "<\(count) bytes hidden>"
}

extension Credentials: CustomReflectable {
    /// Every field but the password, which shows only its length.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "username": username,
                "password": hiddenSecret(bytes: password.utf8.count),
                "url": url,
                "syncEnabled": syncEnabled,
                "backgroundAccess": backgroundAccess,
            ], displayStyle: .struct)
    }
}

extension StoredRecord: CustomReflectable {
    /// Identity and metadata; the secret shows only its length.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["id": id, "metadata": metadata, "secret": hiddenSecret(bytes: secret.count)], displayStyle: .struct)
    }
}

extension FileStoreSecret: CustomReflectable {
    /// Which kind of secret this is, as `description` says it; never a passphrase or key.
    public var customMirror: Mirror {
        Mirror(self, children: ["kind": description], displayStyle: .enum)
    }
}

extension KeyringConfiguration: CustomReflectable {
    /// Every field; of the environment only the names, since it can hold `SWIFT_KEYRING_PASSPHRASE`.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "store": store as Any,
                "timeout": timeout,
                "environment": environment.keys.sorted().map { "\($0)=<hidden>" },
                "fileURL": fileURL,
                "fileSecret": fileSecret as Any,
                "fileLockTimeout": fileLockTimeout,
            ], displayStyle: .struct)
    }
}
