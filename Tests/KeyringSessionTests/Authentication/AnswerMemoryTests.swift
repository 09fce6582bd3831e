import Foundation
import KeyringTestKit
import KeyringTestSupport
import Testing

/// Peak memory while a huge or endless answer is refused, measured in a process of its own
/// (`KeyringTestWorker answer-memory`), so no other test's allocations count.
@Suite("Answer limit and memory")
struct AnswerMemoryTests {
    /// What the worker printed: sizes in KiB and how the request ended.
    struct Measure {
        var baseline = 0
        var peak = 0
        var after = 0
        var outcome = ""

        init(_ line: String) {
            for part in line.split(separator: " ") {
                let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2 else { continue }
                switch pair[0] {
                case "baseline": baseline = Int(pair[1]) ?? 0
                case "peak": peak = Int(pair[1]) ?? 0
                case "after": after = Int(pair[1]) ?? 0
                case "outcome": outcome = pair[1]
                default: break
                }
            }
        }
    }

    @Test(
        "A 1 GiB or endless answer stays under 64 MiB above the baseline while it is refused, and memory falls back after",
        arguments: AnswerLimitTests.hugeAnswers)
    func peakMemory(fault: TestHTTPServer.Fault) throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.inject(fault, at: "/huge")
        let worker = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("KeyringTestWorker")

        let result = try ChildProcess.run(
            [worker.path, "answer-memory", server.url("/landing").absoluteString, server.url("/huge").absoluteString, "curl"],
            timeout: .seconds(60))

        let line = String(decoding: result.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(result.status == 0, "worker: \(result.standardError)")
        let measure = Measure(line)
        #expect(measure.outcome == "answerTooLarge", "\(line)")
        #expect(measure.baseline > 0, "\(line)")
        #expect(measure.peak - measure.baseline < 64 << 10, "peak \(measure.peak - measure.baseline) KiB above the baseline")
        #expect(measure.after - measure.baseline < 16 << 10, "\(measure.after - measure.baseline) KiB stayed after the refusal")
    }
}
