// Apps that import KeyringAuthentication use the session's types (Session,
// SessionProperty) and the keyring's (Keyring, Credentials) in its API, so
// they come with it.
@_exported import KeyringSession
