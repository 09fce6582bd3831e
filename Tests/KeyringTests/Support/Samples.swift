import KeyringTestKit

/// Sample records shared by the tests: the conformance kit's own, so the tests and the
/// checks a store author runs use the same records.
typealias Samples = ConformanceChecks
