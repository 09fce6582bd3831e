import SwiftKeyring

// As in Keyring's SecretHidingMirrors.swift: `dump` and the debugger walk stored
// properties through a value's mirror, so every type here that holds a password,
// or an environment that may hold a passphrase, shows it only by name or length.

extension EtcdConfiguration: CustomReflectable {
    /// Every field; of the environment only the names, since it can hold `SWIFT_KEYRING_PASSPHRASE`.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "endpoints": endpoints,
                "prefix": prefix,
                "timeout": timeout,
                "secret": secret as Any,
                "keyDerivation": keyDerivation,
                "user": user as Any,
                "passwordFile": passwordFile as Any,
                "tls": tls,
                "allowsInsecureAuthentication": allowsInsecureAuthentication,
                "proxy": proxyDescription as Any,
                "stateFolder": stateFolder as Any,
                "environment": environment.keys.sorted().map { "\($0)=<hidden>" },
            ], displayStyle: .struct)
    }
}

extension EtcdClient.Login: CustomReflectable {
    /// The user; the password shows only its length.
    var customMirror: Mirror {
        Mirror(self, children: ["user": user, "password": hiddenSecret(bytes: password.utf8.count)], displayStyle: .struct)
    }
}
