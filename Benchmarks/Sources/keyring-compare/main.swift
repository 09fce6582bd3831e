import Foundation
import Keyring
import KeyringWorkload

// The Swift side of Benchmarks/compare.sh: the comparison workload on one of
// our stores, through the public Keyring API, printing one machine-readable
// line per phase, "PHASE<TAB>COUNT<TAB>MICROSECONDS_PER_OP", as the C and
// Python programs do.
//
//   keyring-compare STORE COUNT [store|bulk-store|lookup|lookup-password|async-overhead|remove|removeall|memory]…
//
// `async-overhead` prints "lookup-sync-median" and "lookup-async-median", the
// median microseconds of sync and async lookups interleaved over records
// 0..<COUNT (stored by an earlier phase), ten rounds.
//
// `memory` prints "baseline-resident-bytes<TAB>COUNT<TAB>BYTES" (the process
// before it opened a store) and "peak-resident-bytes<TAB>COUNT<TAB>BYTES" (the
// high-water mark so far).

let baselineResidentBytes = PeakMemory.residentBytes() ?? 0

let usage = "usage: keyring-compare STORE COUNT [store|bulk-store|lookup|lookup-password|async-overhead|remove|removeall|memory]…"
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 2, let store = BenchmarkStore(rawValue: arguments[arguments.startIndex]),
      let count = Int(arguments[arguments.startIndex + 1]), count >= 0
else {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(64)
}
let phases = arguments.count > 2 ? Array(arguments.dropFirst(2)) : ["store", "lookup", "remove", "removeall"]

func line(_ phase: String, _ value: Double) {
    // Unbuffered, so compare.sh sees each phase as it ends.
    FileHandle.standardOutput.write(Data("\(phase)\t\(count)\t\(String(format: "%.3f", value))\n".utf8))
}

do {
    // Opening the store (connecting to D-Bus, deriving the file's key) is not part of any operation.
    // SWIFT_KEYRING_COMPARE_SERVICE lets a second process reopen what a first one stored.
    let service = ProcessInfo.processInfo.environment["SWIFT_KEYRING_COMPARE_SERVICE"] ?? WorkloadAccounts.uniqueService("compare")
    let keyring = try Keyring(service: service, store: try store.makeStore())
    _ = try keyring.credentials(forKey: "nothing")
    // Whether records 0..<count are stored now, so removeall refills only when needed.
    var present = false
    for phase in phases {
        switch phase {
        case "store":
            line(phase, try Stopwatch.microsecondsPerOperation(count) { try Workload.storeEach(count, in: keyring) })
            present = true
        case "bulk-store":
            // Fills a file store with one write (EncryptedFileStore.save(contentsOf:)), as an import would.
            line(phase, try Stopwatch.microsecondsPerOperation(count) { try Workload.bulkStore(count, in: keyring) })
            present = true
        case "lookup":
            line(phase, try Stopwatch.microsecondsPerOperation(count) { try Workload.lookupEach(count, in: keyring) })
        case "lookup-password":
            line(phase, try Stopwatch.microsecondsPerOperation(count) { try Workload.lookupPasswordEach(count, in: keyring) })
        case "async-overhead":
            let (sync, async) = try waitFor { try await AsyncOverhead.medians(count, rounds: 10, in: keyring) }
            line("lookup-sync-median", sync)
            line("lookup-async-median", async)
        case "remove":
            line(phase, try Stopwatch.microsecondsPerOperation(count) { try Workload.removeEach(count, from: keyring) })
            present = false
        case "removeall":
            if !present { try Workload.storeEach(count, in: keyring) }
            line(phase, try Stopwatch.microsecondsPerOperation(count) { try Workload.removeAll(count, from: keyring) })
            present = false
        case "memory":
            line("baseline-resident-bytes", Double(baselineResidentBytes))
            line("peak-resident-bytes", Double(PeakMemory.peakResidentBytes() ?? 0))
        default:
            FileHandle.standardError.write(Data("keyring-compare: unknown phase \(phase)\n\(usage)\n".utf8))
            exit(64)
        }
    }
} catch {
    // KeyringError and WorkloadFailure descriptions never carry secrets.
    FileHandle.standardError.write(Data("keyring-compare: \(error)\n".utf8))
    exit(1)
}

/// Runs `body` in a task and blocks this (main, not cooperative) thread until it ends.
func waitFor<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var outcome: Result<Value, any Error>?
    Task.detached {
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        done.signal()
    }
    done.wait()
    return try outcome!.get()
}
