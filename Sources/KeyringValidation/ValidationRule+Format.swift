extension ValidationRule where Value == String {
    /// The address syntax of the HTML standard's `<input type=email>`, with a dot
    /// required in the domain: what people mean by "an email address" in a form.
    static var emailPattern: String {
        #"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"#
            + #"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$"#
    }

    /// Fails unless the text is an email address: "Email should be a valid email address."
    ///
    /// The syntax is the HTML standard's for `<input type=email>` with a dot in the
    /// domain (`alice@example.com`, not `alice@localhost`); addresses with non-ASCII
    /// characters are refused, and whether the address exists is not checked.
    /// - Parameter message: replaces the rule's words when given.
    public static func email(message: ValidationMessage? = nil) -> Self {
        .custom("should be a valid email address", message: message) { text in
            wholeMatch(text, pattern: emailPattern)
        }
    }

    /// Fails unless the whole text matches the regular expression `pattern`:
    /// "Username is not in the expected format."
    ///
    /// ```swift
    /// try .matches("[a-z][a-z0-9_]*", message: .reason("should use only a-z, 0-9 and _"))
    /// ```
    /// - Parameters:
    ///   - pattern: Swift `Regex` syntax; it must match the whole text.
    ///   - message: replaces the rule's words when given.
    /// - Throws: ``InvalidPatternError`` when `pattern` is not a regular expression.
    public static func matches(_ pattern: String, message: ValidationMessage? = nil) throws -> Self {
        do {
            _ = try Regex(pattern)
        } catch {
            throw InvalidPatternError(pattern: pattern, reason: "\(error)")
        }
        return .custom("is not in the expected format", message: message) { text in
            wholeMatch(text, pattern: pattern)
        }
    }

    /// `Regex` is not `Sendable`, so rules keep the checked pattern and compile it when they run.
    private static func wholeMatch(_ text: String, pattern: String) -> Bool {
        guard let regex = try? Regex(pattern) else { return false }
        return (try? regex.wholeMatch(in: text)) != nil
    }
}
