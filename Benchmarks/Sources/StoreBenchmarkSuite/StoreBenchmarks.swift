import Benchmark
import KeyringWorkload
import SwiftKeyring

/// The benchmarks every store gets: set, get (sync and async), remove, list and
/// removeAll with the store holding N records, for each N of the settings.
///
/// Each benchmark runs in its own process (package-benchmark's design), so the
/// store is filled in `setup` and shared through the store itself: the service
/// `bench.<N>` is filled once and reused by the next benchmark's process. A
/// factory may give each service its own file, so a file holds N records only.
public enum StoreBenchmarks {
    /// Makes the keyring of `service` on the store under test.
    public typealias KeyringFactory = @Sendable (_ service: String) throws -> Keyring

    /// Registers the six benchmarks at every size.
    /// - Parameters:
    ///   - sizes: the record counts to measure at.
    ///   - settings: time and iteration limits.
    ///   - makeKeyring: opens the keyring of a service on the store under test.
    public static func register(sizes: [Int], settings: BenchmarkSettings, makeKeyring: @escaping KeyringFactory) {
        for count in sizes {
            registerSet(count, settings, makeKeyring)
            registerGet(count, settings, makeKeyring)
            registerAsyncGet(count, settings, makeKeyring)
            registerRemove(count, settings, makeKeyring)
            registerList(count, settings, makeKeyring)
            registerRemoveAll(count, settings, makeKeyring)
        }
    }

    /// The configuration shared by the store benchmarks.
    public static func configuration(_ settings: BenchmarkSettings, maxIterations: Int? = nil) -> Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
            timeUnits: .microseconds,
            warmupIterations: 1,
            maxDuration: settings.maxDuration,
            maxIterations: maxIterations ?? settings.maxIterations
        )
    }

    private static func populated(_ count: Int, _ makeKeyring: KeyringFactory) throws -> Keyring {
        let keyring = try makeKeyring("bench.\(count)")
        try Workload.ensurePopulated(keyring, count: count)
        return keyring
    }

    private static func registerSet(_ count: Int, _ settings: BenchmarkSettings, _ makeKeyring: @escaping KeyringFactory) {
        Benchmark("set (\(count) records)", configuration: configuration(settings)) { benchmark, keyring in
            // Replaces one of the N records, so the count stays N.
            let index = benchmark.currentIteration % count
            try keyring.set(WorkloadAccounts.credentials(index), forKey: WorkloadAccounts.key(index))
        } setup: {
            try populated(count, makeKeyring)
        }
    }

    private static func registerGet(_ count: Int, _ settings: BenchmarkSettings, _ makeKeyring: @escaping KeyringFactory) {
        Benchmark("get (\(count) records)", configuration: configuration(settings)) { benchmark, keyring in
            try Workload.lookup(benchmark.currentIteration % count, in: keyring)
        } setup: {
            try populated(count, makeKeyring)
        }
    }

    /// The same lookup as `get`, through the async face from a task: the difference
    /// is the async face's cost per call (the hop to the keyring's queue and back).
    private static func registerAsyncGet(_ count: Int, _ settings: BenchmarkSettings, _ makeKeyring: @escaping KeyringFactory) {
        Benchmark("get async (\(count) records)", configuration: configuration(settings)) { benchmark, keyring in
            try await Workload.lookupAsync(benchmark.currentIteration % count, in: keyring)
        } setup: {
            try populated(count, makeKeyring)
        }
    }

    private static func registerRemove(_ count: Int, _ settings: BenchmarkSettings, _ makeKeyring: @escaping KeyringFactory) {
        Benchmark("remove (\(count) records)", configuration: configuration(settings)) { benchmark, keyring in
            // Put back the record the previous iteration removed, untimed.
            let index = benchmark.currentIteration % count
            try keyring.set(WorkloadAccounts.credentials(index), forKey: WorkloadAccounts.key(index))
            benchmark.startMeasurement()
            let removed = try keyring.remove(forKey: WorkloadAccounts.key(index))
            benchmark.stopMeasurement()
            guard removed else { throw WorkloadFailure("remove of \(WorkloadAccounts.key(index)) found nothing") }
        } setup: {
            try populated(count, makeKeyring)
        } teardown: {
            // Leave the shared service whole for the next benchmark process.
            try Workload.ensurePopulated(try makeKeyring("bench.\(count)"), count: count)
        }
    }

    private static func registerList(_ count: Int, _ settings: BenchmarkSettings, _ makeKeyring: @escaping KeyringFactory) {
        Benchmark("list (\(count) records)", configuration: configuration(settings)) { _, keyring in
            let listed = try keyring.list().count
            guard listed == count else { throw WorkloadFailure("list returned \(listed) records, not \(count)") }
        } setup: {
            try populated(count, makeKeyring)
        }
    }

    private static func registerRemoveAll(_ count: Int, _ settings: BenchmarkSettings, _ makeKeyring: @escaping KeyringFactory) {
        // Every iteration refills N records untimed, so large N gets few iterations.
        let iterations = max(1, min(settings.maxIterations, 1_000 / count))
        Benchmark("removeAll (\(count) records)", configuration: configuration(settings, maxIterations: iterations)) {
            benchmark, keyring in
            // One write where the store has it (the file), so 100,000 records refill in seconds.
            try Workload.bulkStore(count, in: keyring)
            benchmark.startMeasurement()
            try Workload.removeAll(count, from: keyring)
            benchmark.stopMeasurement()
        } setup: {
            let keyring = try makeKeyring("bench.removeall.\(count)")
            try keyring.removeAll()
            return keyring
        }
    }
}
