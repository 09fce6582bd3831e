import Foundation
import KeyringTestSupport
import SwiftKeyring

/// A Secret Service that misbehaves in one chosen way, on a bus of its own
/// (Tests/FakeSecretService/fake-secret-service.c), for the tests of what the
/// store does with answers no real daemon should send.
///
/// The fake is built on first use by `Scripts/build-fake-secret-service.sh`
/// (cc and gio-2.0, from `Scripts/setup.sh`); when it cannot be built or
/// started, the test fails, never skips.
final class FakeSecretService {
    /// The misbehaviours, as the fake's command line names them.
    enum Mode: String {
        case normal
        case foreignHit = "foreign-hit"
        case wrongAttributesType = "wrong-attributes-type"
        case wrongSecretsType = "wrong-secrets-type"
        case lockedAsString = "locked-as-string"
        case hugeSecret = "huge-secret"
        /// GetSecrets gives 60 MiB for each credentials item.
        case giantSecret = "giant-secret"
        case stallSearch = "stall-search"
        case stallSearchThenExit = "stall-search-then-exit"
        /// Holds each search until the time `startReplacement(_:answeringAt:)` names, then answers it as
        /// `normal` does; says in its log what it held and answered.
        case answerSearchLate = "answer-search-late"
        case dismissCreate = "dismiss-create"
        /// Behaves, but answers each call 20 ms late.
        case slow
        /// Not a daemon: another program of the bus that forges replies to every new
        /// connection and plays a Secret Service at its own unique name (see the C file).
        case forge
    }

    private let sandbox: SecretServiceSandbox
    private let folder: URL
    private let process: Process
    /// The environment that aims a store at the fake.
    var environment: [String: String] { sandbox.environment }

    /// Starts a bus and the fake on it, behaving as `mode` says.
    init(_ mode: Mode) throws {
        let binary = try Self.build()
        sandbox = try SecretServiceSandbox(.busOnly)
        folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("swift-keyring-fake-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("fake.log")
        process = try ChildProcess.start([binary, mode.rawValue], environment: sandbox.environment, log: log)
        let started = ChildProcess.poll(timeout: .seconds(15)) {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            return output.contains("ready\n") || !process.isRunning
        }
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard started, process.isRunning, output.contains("ready\n") else {
            stop()
            throw ChildProcess.Failure(description: "the fake Secret Service did not start: \(output)")
        }
    }

    deinit {
        stop()
    }

    /// A store aimed at the fake.
    func makeStore() throws -> SecretServiceStore {
        try SecretServiceStore(timeout: .seconds(10), environment: environment)
    }

    /// Starts a second fake on the same bus that takes `org.freedesktop.secrets` over, empty,
    /// while this one keeps running and answering calls sent to its unique name; the caller
    /// terminates the process it returns. With `answerSearchLate` it answers a search it holds
    /// at the time `answerHeldSearches(at:)` set last (at once if none).
    func startReplacement(_ mode: Mode = .normal) throws -> Process {
        try startSecond(
            [mode.rawValue, "--replace"], log: "replacement.log",
            environment: ["FAKE_ANSWER_AT_FILE": answerTime.path])
    }

    /// When the replacement answers the searches it holds from now on: microseconds of
    /// `CLOCK_MONOTONIC` (`monotonicMicroseconds()`), read by the fake as each search arrives.
    func answerHeldSearches(at time: Int64) throws {
        try Data(String(time).utf8).write(to: answerTime, options: .atomic)
    }

    private var answerTime: URL { folder.appendingPathComponent("answer-at") }

    /// What the replacement printed so far: with `answerSearchLate`, a line "search held" for
    /// each search it received and "search answered" for each it answered.
    func replacementLog() -> String {
        (try? String(contentsOf: folder.appendingPathComponent("replacement.log"), encoding: .utf8)) ?? ""
    }

    /// Ends this fake's process `delay` from now, from a thread of its own, while its bus (and a
    /// replacement on it) keeps running: a daemon that leaves while a call waits on it.
    func leave(after delay: Duration) {
        let process = UncheckedProcess(process: process)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
            ChildProcess.terminate(process.process)
        }
    }

    /// The fake's process, handed to the thread that ends it; only that thread touches it meanwhile.
    private struct UncheckedProcess: @unchecked Sendable {
        let process: Process
    }

    /// Starts the forger (`Mode.forge`) on the same bus, beside this fake, which keeps the
    /// name; the caller terminates the process it returns.
    func startForger() throws -> Process {
        try startSecond([Mode.forge.rawValue], log: "forger.log")
    }

    private func startSecond(_ arguments: [String], log name: String, environment extra: [String: String] = [:])
        throws -> Process
    {
        let log = folder.appendingPathComponent(name)
        let environment = sandbox.environment.merging(extra) { _, new in new }
        let process = try ChildProcess.start([try Self.build()] + arguments, environment: environment, log: log)
        let started = ChildProcess.poll(timeout: .seconds(15)) {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("ready\n") || !process.isRunning
        }
        guard started, process.isRunning else {
            ChildProcess.terminate(process)
            throw ChildProcess.Failure(
                description: "the second fake did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
        return process
    }

    /// Changes the misbehaviour; records written before stay.
    func setMode(_ mode: Mode) throws {
        _ = try debugCall("SetMode", "string:\(mode.rawValue)")
    }

    /// How many items the fake holds, whatever its mode.
    func itemCount() throws -> Int {
        let reply = try debugCall("ItemCount")
        guard let count = reply.split(separator: " ").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        else {
            throw ChildProcess.Failure(description: "ItemCount answered: \(reply)")
        }
        return count
    }

    private func debugCall(_ method: String, _ arguments: String...) throws -> String {
        let output = try ChildProcess.run(
            [
                "dbus-send", "--session", "--print-reply", "--reply-timeout=5000", "--dest=org.freedesktop.secrets",
                "/org/freedesktop/secrets", "org.swiftkeyring.FakeSecretService.Debug.\(method)",
            ] + arguments,
            environment: environment, timeout: .seconds(10))
        guard output.status == 0 else {
            throw ChildProcess.Failure(description: "\(method) failed: \(output.standardError)")
        }
        return String(decoding: output.standardOutput, as: UTF8.self)
    }

    func stop() {
        ChildProcess.terminate(process)
        sandbox.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Builds the fake (the script rebuilds only when the source changed) and returns its path.
    private static func build() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let output = try ChildProcess.run(
            [root.appendingPathComponent("Scripts/build-fake-secret-service.sh").path], timeout: .seconds(120))
        let path = String(decoding: output.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard output.status == 0, FileManager.default.isExecutableFile(atPath: path) else {
            throw ChildProcess.Failure(
                description: "Scripts/build-fake-secret-service.sh failed (needs cc, pkg-config and gio-2.0): "
                    + output.standardError)
        }
        return path
    }
}

/// Now, in microseconds of `CLOCK_MONOTONIC`: the clock the fake's `g_get_monotonic_time` reads,
/// shared by every process of the machine.
func monotonicMicroseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
}
