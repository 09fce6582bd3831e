/// What the length rules count.
public enum TextLengthUnit: Sendable, Hashable {
    /// Characters as a person sees them (Swift `Character`s: "é" and "👩‍👩‍👧" are one each).
    case characters
    /// UTF-8 bytes, for limits set by storage rather than by people.
    case utf8Bytes

    func count(_ text: String) -> Int {
        switch self {
        case .characters: text.count
        case .utf8Bytes: text.utf8.count
        }
    }

    func words(_ count: Int) -> String {
        switch self {
        case .characters: count == 1 ? "1 character" : "\(count) characters"
        case .utf8Bytes: count == 1 ? "1 byte" : "\(count) bytes"
        }
    }
}

extension ValidationRule where Value == String {
    /// Fails when the text is shorter than `minimum`: "Username should have at least 4 characters."
    /// - Parameters:
    ///   - minimum: the fewest allowed.
    ///   - unit: what to count; characters unless given.
    ///   - message: replaces the rule's words when given.
    public static func minLength(_ minimum: Int, in unit: TextLengthUnit = .characters, message: ValidationMessage? = nil) -> Self
    {
        .custom("should have at least \(unit.words(minimum))", message: message) { unit.count($0) >= minimum }
    }

    /// Fails when the text is longer than `maximum`: "Username should have at most 20 characters."
    /// - Parameters:
    ///   - maximum: the most allowed.
    ///   - unit: what to count; characters unless given.
    ///   - message: replaces the rule's words when given.
    public static func maxLength(_ maximum: Int, in unit: TextLengthUnit = .characters, message: ValidationMessage? = nil) -> Self
    {
        .custom("should have at most \(unit.words(maximum))", message: message) { unit.count($0) <= maximum }
    }

    /// Fails when the length is outside `range`: "Username should have between 4 and 20 characters."
    /// - Parameters:
    ///   - range: the allowed lengths.
    ///   - unit: what to count; characters unless given.
    ///   - message: replaces the rule's words when given.
    public static func length(_ range: ClosedRange<Int>, in unit: TextLengthUnit = .characters, message: ValidationMessage? = nil)
        -> Self
    {
        if range.lowerBound == range.upperBound {
            return .length(exactly: range.lowerBound, in: unit, message: message)
        }
        return .custom("should have between \(range.lowerBound) and \(unit.words(range.upperBound))", message: message) {
            range.contains(unit.count($0))
        }
    }

    /// Fails unless the text has exactly `count`: "Code should have exactly 6 characters."
    /// - Parameters:
    ///   - count: the one allowed length.
    ///   - unit: what to count; characters unless given.
    ///   - message: replaces the rule's words when given.
    public static func length(exactly count: Int, in unit: TextLengthUnit = .characters, message: ValidationMessage? = nil)
        -> Self
    {
        .custom("should have exactly \(unit.words(count))", message: message) { unit.count($0) == count }
    }
}
