import SwiftKeyring
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The checks every `CredentialStore` must pass, runnable against any store from any test framework.
///
/// These are the checks the library's own stores pass (memory, the encrypted file, the
/// Secret Service, etcd): fields and passwords round-trip exactly, a second save replaces,
/// removal and `removeAll` take exactly what they should, credentials and secrets under one
/// key never collide, names of any text but NUL come back byte for byte, and sixteen threads
/// at once lose nothing. Each check works through a `Keyring` on the store, as an app would,
/// under a service name of its own, and removes what it stored when it ends.
///
/// The checker imports no test framework: ``run(_:)`` returns the failures and
/// ``verify(_:)`` throws them, so a test in Swift Testing or XCTest calls it the same way.
///
/// ```swift
/// import KeyringTestKit
/// import Testing
///
/// @Test(arguments: CredentialStoreConformance.Check.allCases)
/// func conformance(check: CredentialStoreConformance.Check) throws {
///     try CredentialStoreConformance(store: MyStore(path: temporaryPath)).verify([check])
/// }
/// ```
///
/// The store must be empty of the checks' services (they are new UUIDs each run) and must
/// be usable from many threads at once, as the protocol asks.
public struct CredentialStoreConformance: Sendable {
    /// One check of the suite, named after what it proves.
    public enum Check: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Username, password, URL (as written, case and escapes kept) and both flags come back equal.
        case fieldsRoundTrip = "fields round-trip"
        /// Empty, NUL-holding, non-ASCII and 64 KiB passwords come back exactly, by `record(for:)` and `secret(for:)`.
        case passwordsRoundTrip = "passwords round-trip"
        /// A second save under one key replaces the first: one record afterwards, the second.
        case saveReplaces = "save replaces"
        /// An absent record reads as `nil` and removes as `false`.
        case missingRecords = "missing records"
        /// Removing one key takes that record and no other.
        case removeTakesOne = "remove takes one"
        /// The default record and keyed records are separate.
        case defaultIsSeparate = "default is separate"
        /// Listing gives every record's key, username, URL and flags, and filters on the flags.
        case listAndFilters = "list and filters"
        /// A secret and credentials under one key are two records, each read by its own kind
        /// (`record(for:)` and `secret(for:)` alike); a secret's bytes (any bytes) round-trip.
        case kindsAreSeparate = "kinds are separate"
        /// `removeAll` takes every record of its service and nothing of another service's.
        case removeAllKeepsOtherServices = "removeAll keeps other services"
        /// Keys and usernames of any text but NUL come back byte for byte, and are listed so.
        case exactNames = "exact names"
        /// Sixteen threads of mixed calls at once lose no record.
        case concurrentCalls = "concurrent calls"

        /// The check's name.
        public var description: String { rawValue }
    }

    /// Names of whitespace, control characters, punctuation, scripts, combining marks and emoji:
    /// what ``Check/exactNames`` stores as keys and usernames unless given others.
    public static let exactNames: [String] = [
        "tab\there", "new\nline", "carriage\rreturn", "vertical\u{0B}tab", "form\u{0C}feed", " \t\n\r\u{0B}\u{0C} ",
        "escape \u{1B}[2J and DEL \u{7F} and C1 \u{85}\u{9B}",
        "punctuation !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
        "ключ Ελληνικά 中文 日本語 한국어 עברית العربية हिन्दी",
        "e\u{301} decomposed", "\u{E9} precomposed",
        // One word twice, told apart by bytes alone: Swift's == takes them for one string.
        "caf\u{E9}", "cafe\u{301}",
        "🔑👩‍👩‍👧‍👦🇫🇷",
        "\u{FEFF}leading BOM", "trailing space ",
    ]

    private let store: any CredentialStore
    private let names: [String]
    private let servicePrefix: String

    /// A checker for `store`.
    /// - Parameters:
    ///   - store: the store under test; the checks add and remove records of their own services only.
    ///   - exactNames: the names ``Check/exactNames`` stores; leave out only what the storage
    ///     behind the store is known to change (KeePassXC drops a leading U+FEFF), and say why.
    ///   - servicePrefix: the start of every service name the checks use.
    public init(
        store: any CredentialStore,
        exactNames: [String] = CredentialStoreConformance.exactNames,
        servicePrefix: String = "conformance"
    ) {
        self.store = store
        self.names = exactNames
        self.servicePrefix = servicePrefix
    }

    /// Runs `checks` in order and returns every expectation the store did not meet; empty when it passed.
    ///
    /// A check that throws ends there, with the error as one failure; the other checks still run.
    public func run(_ checks: [Check] = Check.allCases) -> [ConformanceFailure] {
        checks.flatMap { check in
            var findings = Findings(check: check)
            let services = ServiceNames(prefix: servicePrefix)
            do {
                try body(of: check)(&findings, Fixture(store: store, services: services, names: names))
            } catch {
                findings.failures.append(ConformanceFailure(check: check, expected: "no error", found: "\(error)"))
            }
            for service in services.used {
                _ = try? Keyring(service: service, store: store).removeAll()
            }
            return findings.failures
        }
    }

    /// Runs `checks` and throws their failures, for a test that fails on any thrown error.
    /// - Throws: ``ConformanceFailures`` with every expectation not met.
    public func verify(_ checks: [Check] = Check.allCases) throws {
        let failures = run(checks)
        if !failures.isEmpty { throw ConformanceFailures(failures) }
    }

    private func body(of check: Check) -> (inout Findings, Fixture) throws -> Void {
        switch check {
        case .fieldsRoundTrip: ConformanceChecks.fieldsRoundTrip
        case .passwordsRoundTrip: ConformanceChecks.passwordsRoundTrip
        case .saveReplaces: ConformanceChecks.saveReplaces
        case .missingRecords: ConformanceChecks.missingRecords
        case .removeTakesOne: ConformanceChecks.removeTakesOne
        case .defaultIsSeparate: ConformanceChecks.defaultIsSeparate
        case .listAndFilters: ConformanceChecks.listAndFilters
        case .kindsAreSeparate: ConformanceChecks.kindsAreSeparate
        case .removeAllKeepsOtherServices: ConformanceChecks.removeAllKeepsOtherServices
        case .exactNames: ConformanceChecks.exactNames
        case .concurrentCalls: ConformanceChecks.concurrentCalls
        }
    }
}

/// What one check found so far.
struct Findings {
    let check: CredentialStoreConformance.Check
    var failures: [ConformanceFailure] = []

    /// Records a failure unless `condition` holds; the check goes on either way.
    mutating func expect(_ condition: Bool, _ expected: @autoclosure () -> String, found: @autoclosure () -> String) {
        if !condition {
            failures.append(ConformanceFailure(check: check, expected: expected(), found: found()))
        }
    }
}

/// The service names one check used, so the checker removes their records when it ends.
final class ServiceNames: Sendable {
    private let prefix: String
    private let names = Mutex<[String]>([])

    init(prefix: String) {
        self.prefix = prefix
    }

    var used: [String] { names.withLock { $0 } }

    func next() -> String {
        let name = "\(prefix).\(UUID().uuidString.lowercased())"
        names.withLock { $0.append(name) }
        return name
    }
}

/// What a check works with: keyrings on the store under test, each under a new service.
struct Fixture: Sendable {
    let store: any CredentialStore
    let services: ServiceNames
    let names: [String]

    func keyring() throws -> Keyring {
        try Keyring(service: services.next(), store: store)
    }
}
