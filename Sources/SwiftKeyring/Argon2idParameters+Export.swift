// The Argon2id cost lives in the crypto layer with its bounds; users of `Keyring`
// name it as they always have, so the struct is re-exported.
@_exported public import struct KeyringCrypto.Argon2idParameters
