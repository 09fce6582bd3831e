/// Every name of the Secret Service specification the client speaks, spelled once.
enum SecretServiceNames {
    /// The well-known bus name the daemon owns.
    static let busName = "org.freedesktop.secrets"
    /// The service object's path.
    static let servicePath = "/org/freedesktop/secrets"
    static let service = "org.freedesktop.Secret.Service"
    static let collection = "org.freedesktop.Secret.Collection"
    static let item = "org.freedesktop.Secret.Item"
    static let prompt = "org.freedesktop.Secret.Prompt"
    static let session = "org.freedesktop.Secret.Session"
    /// gnome-keyring's interface of its own, for a password given without a prompt.
    static let gnomeKeyringInternal = "org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface"
    /// The specification's errors: the object is locked, or there is no such object.
    static let isLockedError = "org.freedesktop.Secret.Error.IsLocked"
    static let noSuchObjectError = "org.freedesktop.Secret.Error.NoSuchObject"
    /// What a daemon without the key exchange answers `OpenSession` with.
    static let notSupportedError = "org.freedesktop.DBus.Error.NotSupported"
    /// The property names a new item or collection is given, `Interface.Property`.
    static let itemLabel = "org.freedesktop.Secret.Item.Label"
    static let itemAttributes = "org.freedesktop.Secret.Item.Attributes"
    static let collectionLabel = "org.freedesktop.Secret.Collection.Label"
    /// The path a daemon answers for "none" (no prompt, no item, no alias).
    static let none = "/"
}
