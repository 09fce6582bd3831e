import Foundation
import KeyringSession
import Testing

/// A sign-up form, as an app would validate it.
struct SignUpForm: Sendable {
    var username = "alice"
    var email = "alice@example.com"
    var code = "123456"
    var password = "correct horse"
    var confirmation = "correct horse"
}

/// One rule, a form it passes and a form it fails, and the sentences the failure must give.
struct RuleCase: Sendable, CustomTestStringConvertible {
    var name: String
    var validator: Validator<SignUpForm>
    var passing: [SignUpForm]
    var failing: [SignUpForm]
    var messages: [String]

    var testDescription: String { name }

    static func username(_ values: String...) -> [SignUpForm] {
        values.map { SignUpForm(username: $0) }
    }

    static func email(_ values: String...) -> [SignUpForm] {
        values.map { SignUpForm(email: $0) }
    }
}

@Suite("Validation rules")
struct ValidationRuleTests {
    static let cases: [RuleCase] = [
        RuleCase(
            name: "required", validator: Validator().field("username", \.username, .required()),
            passing: RuleCase.username("a", " "), failing: RuleCase.username(""),
            messages: ["Username is required."]),
        RuleCase(
            name: "min length counts characters as people see them",
            validator: Validator().field("username", \.username, .minLength(4)),
            passing: RuleCase.username("abcd", "ééé👩‍👩‍👧", "abcdefgh"), failing: RuleCase.username("", "abc", "é👩‍👩‍👧"),
            messages: ["Username should have at least 4 characters."]),
        RuleCase(
            name: "min length of one", validator: Validator().field("username", \.username, .minLength(1)),
            passing: RuleCase.username("a"), failing: RuleCase.username(""),
            messages: ["Username should have at least 1 character."]),
        RuleCase(
            name: "max length", validator: Validator().field("username", \.username, .maxLength(8)),
            passing: RuleCase.username("", "abcdefgh"), failing: RuleCase.username("abcdefghi"),
            messages: ["Username should have at most 8 characters."]),
        RuleCase(
            name: "max length in bytes", validator: Validator().field("username", \.username, .maxLength(4, in: .utf8Bytes)),
            passing: RuleCase.username("abcd", "éé"), failing: RuleCase.username("ééé", "🔑a"),
            messages: ["Username should have at most 4 bytes."]),
        RuleCase(
            name: "length range", validator: Validator().field("username", \.username, .length(4...8)),
            passing: RuleCase.username("abcd", "abcdefgh"), failing: RuleCase.username("abc", "abcdefghi"),
            messages: ["Username should have between 4 and 8 characters."]),
        RuleCase(
            name: "exact length", validator: Validator().field("code", \.code, .length(exactly: 6)),
            passing: [SignUpForm(code: "000000")], failing: [SignUpForm(code: "12345"), SignUpForm(code: "1234567")],
            messages: ["Code should have exactly 6 characters."]),
        RuleCase(
            name: "email syntax", validator: Validator().field("email", \.email, .email()),
            passing: RuleCase.email("alice@example.com", "a.b+tag@mail.example.co.uk", "x_y-z@a-b.io"),
            failing: RuleCase.email(
                "", "alice", "alice@", "@example.com", "alice@localhost", "alice@exa mple.com",
                "alice@@example.com", "alice@example..com", "alice@-example.com", " alice@example.com"),
            messages: ["Email should be a valid email address."]),
        RuleCase(
            name: "regular expression matches the whole text",
            validator: try! Validator().field("username", \.username, .matches("[a-z][a-z0-9_]*")),
            passing: RuleCase.username("alice", "a_1"), failing: RuleCase.username("Alice", "1alice", "alice!", "alice bob"),
            messages: ["Username is not in the expected format."]),
        RuleCase(
            name: "equal to another field",
            validator: Validator().field(
                "confirmation", \.confirmation, displayName: "Password confirmation",
                .equal(to: \.password, displayName: "Password")),
            passing: [SignUpForm(password: "same", confirmation: "same")],
            failing: [SignUpForm(password: "one", confirmation: "two"), SignUpForm(password: "x", confirmation: "")],
            messages: ["Password confirmation should match Password."]),
        RuleCase(
            name: "custom closure",
            validator: Validator().field("username", \.username, .custom("should not be admin") { $0.lowercased() != "admin" }),
            passing: RuleCase.username("alice"), failing: RuleCase.username("admin", "Admin"),
            messages: ["Username should not be admin."]),
        RuleCase(
            name: "custom closure with a reason from the value and the whole form",
            validator: Validator().field(
                "password", \.password,
                ValidationRule { password, form in
                    password.contains(form.username) ? "should not contain the username" : nil
                }),
            passing: [SignUpForm(username: "alice", password: "horse")],
            failing: [SignUpForm(username: "alice", password: "alice123")],
            messages: ["Password should not contain the username."]),
        RuleCase(
            name: "a whole sentence replaces the message",
            validator: Validator().field("username", \.username, .minLength(4, message: "Pick a longer name, please.")),
            passing: RuleCase.username("abcd"), failing: RuleCase.username("abc"),
            messages: ["Pick a longer name, please."]),
        RuleCase(
            name: "a reason replaces the words after the display name",
            validator: Validator().field(
                "username", \.username, displayName: "User name", .minLength(4, message: .reason("is too short"))),
            passing: RuleCase.username("abcd"), failing: RuleCase.username("abc"),
            messages: ["User name is too short."]),
    ]

    @Test("Each rule passes good values and fails bad ones with its exact sentence", arguments: cases)
    func rule(_ rule: RuleCase) {
        for form in rule.passing {
            #expect(rule.validator.validate(form).isEmpty, "\(rule.name) refused a value it should pass")
        }
        for form in rule.failing {
            #expect(rule.validator.validate(form).map(\.message) == rule.messages)
        }
    }

    @Test("Validating returns every failure of every field, in order")
    func everyFailure() throws {
        let validator = try Validator<SignUpForm>()
            .field("username", \.username, .required(), .minLength(4), .matches("[a-z]+"))
            .field("email", \.email, .email())
            .field(
                "confirmation", \.confirmation, displayName: "Password confirmation",
                .equal(to: \.password, displayName: "Password"))
        let form = SignUpForm(username: "", email: "nope", password: "a", confirmation: "b")
        #expect(
            validator.validate(form).map(\.message) == [
                "Username is required.",
                "Username should have at least 4 characters.",
                "Username is not in the expected format.",
                "Email should be a valid email address.",
                "Password confirmation should match Password.",
            ])
        #expect(validator.validate(SignUpForm(username: "alice", password: "p", confirmation: "p")).isEmpty)
    }

    @Test("A failure names the field and the reason, and becomes an invalid-record error")
    func failureParts() throws {
        let validator = Validator<SignUpForm>()
            .field("username", \.username, .minLength(4, message: "Longer, please."))
            .field("code", \.code, displayName: "Code", .length(exactly: 6, message: .reason("must have six digits")))
        let failures = validator.validate(SignUpForm(username: "abc", code: "1"))
        #expect(
            failures == [
                ValidationFailure(
                    field: "username", displayName: "Username", reason: "should have at least 4 characters",
                    message: "Longer, please."),
                ValidationFailure(
                    field: "code", displayName: "Code", reason: "must have six digits", message: "Code must have six digits."),
            ])
        #expect(KeyringError(failures[1]) == .invalidRecord(field: "code", reason: "must have six digits"))
        #expect(failures[1].description == "Code must have six digits.")
    }

    @Test("An invalid regular expression is refused when the rule is made")
    func invalidPattern() {
        #expect {
            _ = try ValidationRule<SignUpForm, String>.matches("[unclosed")
        } throws: { error in
            guard let error = error as? KeyringError, error.code == .invalidConfiguration else { return false }
            return error.setting == "pattern"
        }
    }

    @Test("The same length range bounds read as an exact length")
    func degenerateRange() {
        let validator = Validator<SignUpForm>().field("code", \.code, .length(6...6))
        #expect(validator.validate(SignUpForm(code: "1")).map(\.message) == ["Code should have exactly 6 characters."])
    }

    @Test("A message never quotes the value")
    func messagesHideValues() {
        let secret = "hunter2-secret"
        let validator = Validator<SignUpForm>()
            .field("password", \.password, .minLength(40), .maxLength(3), .length(exactly: 2), .email())
            .field("confirmation", \.confirmation, .equal(to: \.password, displayName: "Password"))
        let failures = validator.validate(SignUpForm(password: secret, confirmation: secret + "x"))
        #expect(failures.count == 5)
        #expect(failures.allSatisfy { !$0.message.contains(secret) && !$0.reason.contains(secret) })
    }
}

@Suite("Credentials validation with rules")
struct CredentialsRuleTests {
    @Test("Credentials list every failure as a sentence, never quoting the password")
    func credentialsFailures() throws {
        var credentials = try Credentials(username: "alice", password: "hunter2-secret", url: URL(string: "https://example.com")!)
        #expect(credentials.validationFailures.isEmpty)
        credentials.username = ""
        credentials.url = URL(string: "ftp://user:hunter2-secret@files.example.com")!
        let messages = credentials.validationFailures.map(\.message)
        #expect(
            messages == [
                "Username must not be empty.",
                "URL must use http or https, not ftp.",
                "URL must not contain a password; store it as the password.",
            ])
        #expect(throws: KeyringError.invalidRecord(field: "username", reason: "must not be empty")) {
            try credentials.validate()
        }
    }
}
