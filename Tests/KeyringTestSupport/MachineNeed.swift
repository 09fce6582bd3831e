import Foundation
import Testing

/// Something a test needs of the machine and not every machine has: root, gdb, setpriv,
/// user namespaces.
///
/// The one rule for such needs: on a developer's machine a test whose need is unmet is
/// skipped, with `remedy` as the reason; under `CI=true` it runs and fails at its first
/// line, naming `remedy`, so a CI machine that lacks something never passes with fewer
/// tests. Use ``trait(sourceLocation:)`` on the test and call ``require(sourceLocation:)`` first thing
/// in its body (or, for a part of a test, ``applies`` then ``require(sourceLocation:)``).
/// (The passes that select their suites by design, such as the locked-KWallet pass, are
/// chosen by Scripts/test.sh, not by this rule.)
package struct MachineNeed: Sendable {
    /// Whether this machine meets the need.
    package let isMet: Bool
    /// What to install, run as, or allow so that it does, for the skip's reason and the failure.
    package let remedy: String

    package init(isMet: Bool, remedy: String) {
        self.isMet = isMet
        self.remedy = remedy
    }

    /// Whether this run is CI's (`CI=true`), where nothing may be skipped for what the machine lacks.
    package static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Running as root (CI does): giving files to another user, taking another uid.
    package static let root = MachineNeed(isMet: geteuid() == 0, remedy: "run the tests as root (as CI does)")

    /// Running as root with `setpriv` installed: running a program as another user (uid 65534).
    package static let rootWithSetpriv = MachineNeed(
        isMet: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
        remedy: "run the tests as root (as CI does) with setpriv installed (util-linux)")

    /// Whether a test (or a part of one) that needs this runs: when the need is met, and always under CI.
    package var applies: Bool { isMet || Self.isCI }

    /// The trait that skips the test outside CI when the need is unmet, and runs it under CI.
    package func trait(sourceLocation: SourceLocation = #_sourceLocation) -> ConditionTrait {
        .enabled(if: applies, Comment(rawValue: remedy), sourceLocation: sourceLocation)
    }

    /// Fails the test, naming the remedy, when the need is unmet (only reached under CI).
    package func require(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(isMet, "this machine cannot run the test: \(remedy)", sourceLocation: sourceLocation)
    }
}
