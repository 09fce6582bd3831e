/// One expectation of a conformance check that a store did not meet.
///
/// It names the check, what the check expected and what the store did instead, so a
/// test in any framework can show it as it is:
///
/// ```swift
/// let failures = CredentialStoreConformance(store: MyStore()).run()
/// XCTAssertTrue(failures.isEmpty, failures.map(\.description).joined(separator: "\n"))
/// ```
///
/// No secret a check stored is quoted: passwords and secrets are described by their length.
public struct ConformanceFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The check that failed.
    public var check: CredentialStoreConformance.Check
    /// What the check expected of the store, such as "one record under the key after a second save".
    public var expected: String
    /// What the store did instead: the value read back, or the error it threw.
    public var found: String

    /// Creates a failure.
    public init(check: CredentialStoreConformance.Check, expected: String, found: String) {
        self.check = check
        self.expected = expected
        self.found = found
    }

    /// "check: expected …; found …", on one line.
    public var description: String {
        "\(check.rawValue): expected \(expected); found \(found)"
    }
}

/// The error ``CredentialStoreConformance/verify(_:)`` throws: every failure of the checks it ran.
public struct ConformanceFailures: Error, Sendable, Hashable, CustomStringConvertible {
    /// The failures, in the order the checks ran; never empty.
    public var failures: [ConformanceFailure]

    /// Creates the error.
    public init(_ failures: [ConformanceFailure]) {
        self.failures = failures
    }

    /// One failure a line.
    public var description: String {
        "the store failed \(failures.count) conformance expectation(s):\n"
            + failures.map { "  \($0.description)" }.joined(separator: "\n")
    }
}
