// Apps that import KeyringSession use Keyring's types (Keyring, Credentials,
// KeyringError) in every call, so they come with it.
@_exported import SwiftKeyring
