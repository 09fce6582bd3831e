import Foundation

/// How a secure property's value becomes the bytes of a keyring secret.
///
/// Text and data are kept as they are, so a token reads the same in Seahorse or
/// `secret-tool`; every other value is kept as its JSON.
enum SecretCoding {
    /// The bytes for `value`, or `nil` when it encodes as JSON `null` (which removes the property).
    static func bytes(of value: some Encodable) throws -> Data? {
        switch value {
        case let text as String:
            return Data(text.utf8)
        case let data as Data:
            return data
        default:
            let json = try JSONEncoder().encode(value)
            return json == Data("null".utf8) ? nil : json
        }
    }

    /// `bytes` read back as a `Value`; `nil` when they are not one.
    static func value<Value: Decodable>(_ type: Value.Type, from bytes: Data) -> Value? {
        if Value.self == String.self {
            return String(validating: bytes, as: UTF8.self) as? Value
        }
        if Value.self == Data.self {
            return bytes as? Value
        }
        return try? JSONDecoder().decode(Value.self, from: bytes)
    }
}
