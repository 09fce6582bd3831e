import Foundation

/// Typed reads for the common value types; `set(_:for:)` saves all of them.
extension Session {
    /// The text value of `property`, or `nil`.
    /// - Throws: `KeyringError.invalidRecord` naming the property when its value is not text.
    public func string(for property: Property) throws -> String? {
        try value(String.self, for: property)
    }

    /// The data value of `property`, or `nil`.
    /// - Throws: `KeyringError.invalidRecord` naming the property when its value is not data.
    public func data(for property: Property) throws -> Data? {
        try value(Data.self, for: property)
    }

    /// The Boolean value of `property`, or `nil`.
    /// - Throws: `KeyringError.invalidRecord` naming the property when its value is not a Boolean.
    public func bool(for property: Property) throws -> Bool? {
        try value(Bool.self, for: property)
    }

    /// The integer value of `property`, or `nil`.
    /// - Throws: `KeyringError.invalidRecord` naming the property when its value is not an integer.
    public func int(for property: Property) throws -> Int? {
        try value(Int.self, for: property)
    }

    /// The date value of `property`, or `nil`.
    /// - Throws: `KeyringError.invalidRecord` naming the property when its value is not a date.
    public func date(for property: Property) throws -> Date? {
        try value(Date.self, for: property)
    }
}
