import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// The async face leaves Swift concurrency's cooperative threads free while
/// keyring calls wait. The pool is held to its minimum with
/// `LIBDISPATCH_COOPERATIVE_POOL_STRICT=1`, read only when a process starts, so
/// each check runs in a `KeyringTestWorker` of its own (`AsyncProgressCheck`).
@Suite("Async calls and the cooperative pool")
struct AsyncPoolTests {
    /// What the worker saw: the lookups still waiting and the counter, at two samples; then how the lookups ended.
    struct Report {
        var calls = 0
        var pending: [Int] = []
        var counter: [Int] = []
        var ok = 0
        var timedOut = 0
        var other = 0

        init(_ line: String) {
            for field in line.split(separator: " ") {
                let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { continue }
                let numbers = parts[1].split(separator: ",").compactMap { Int($0) }
                switch parts[0] {
                case "calls": calls = numbers.first ?? 0
                case "pending": pending = numbers
                case "counter": counter = numbers
                case "ok": ok = numbers.first ?? 0
                case "timedOut": timedOut = numbers.first ?? 0
                case "other": other = numbers.first ?? 0
                default: break
                }
            }
        }
    }

    private func runCheck(_ mode: String) throws -> Report {
        let sandbox = try SecretServiceSandbox(.busAndDaemon)
        defer { sandbox.stop() }
        let pid = try #require(sandbox.daemonPID)
        var environment = sandbox.environment
        environment["LIBDISPATCH_COOPERATIVE_POOL_STRICT"] = "1"
        let output = try ChildProcess.run(
            [TestWorker.executable.path, "async-progress", String(pid), mode],
            environment: environment,
            timeout: .seconds(120)
        )
        #expect(output.status == 0, "worker: \(output.standardError)")
        // Figures seen here: async counter=48,188 (it went on); sync counter=1,1 (it stopped).
        let line = String(decoding: output.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Report(line)
    }

    @Test("Eight async calls on a stopped daemon: another task keeps counting meanwhile, and all eight end once it resumes")
    func asyncCallsLeaveThePoolFree() throws {
        let report = try runCheck("async")
        #expect(report.calls >= 8)
        // Both samples were taken while every lookup still waited on the stopped daemon…
        #expect(report.pending == [report.calls, report.calls])
        // …and the counting task went on between them.
        #expect(report.counter.count == 2 && report.counter[1] > report.counter[0], "counter: \(report.counter)")
        #expect(report.ok + report.timedOut == report.calls)
        #expect(report.other == 0)
    }

    @Test("Control: the same lookups through the sync face, from tasks, stop the counting task")
    func syncCallsFromTasksStallThePool() throws {
        // Shows the check can fail: with the pool at its minimum, blocking calls on its
        // threads leave none for the counter. Without this, a pool that grew would hide it.
        let report = try runCheck("sync")
        #expect(report.counter.count == 2 && report.counter[1] == report.counter[0], "counter: \(report.counter)")
        #expect(report.ok + report.timedOut == report.calls)
    }
}
