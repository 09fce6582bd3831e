import Foundation

/// The knobs of a benchmark run, read from the environment so that the smoke
/// pass in CI and the full run share one build.
///
/// - `SWIFT_KEYRING_BENCH_SIZES`: record counts, comma-separated (default `100,1000,10000`).
/// - `SWIFT_KEYRING_BENCH_LARGE_SIZES`: extra counts for the file store (default `100000`).
/// - `SWIFT_KEYRING_BENCH_MAX_SECONDS`: wall time per benchmark (default 2).
/// - `SWIFT_KEYRING_BENCH_MAX_ITERATIONS`: iterations per benchmark (default 1000).
/// - `SWIFT_KEYRING_BENCH_DIR`: where file stores live between benchmark processes.
/// - `SWIFT_KEYRING_BENCH_TIMEOUT`: the Secret Service store's timeout in seconds (default 600).
public struct BenchmarkSettings: Sendable {
    /// Record counts every store is measured at.
    public var sizes: [Int]
    /// Further record counts for the file store only.
    public var largeSizes: [Int]
    /// The longest a single benchmark runs.
    public var maxDuration: Duration
    /// The most iterations a single benchmark runs.
    public var maxIterations: Int
    /// The folder for files the benchmarks create.
    public var folder: URL
    /// The bound on each Secret Service store call.
    public var secretServiceTimeout: Duration

    /// The settings of this process's environment.
    public static var current: BenchmarkSettings {
        BenchmarkSettings(environment: ProcessInfo.processInfo.environment)
    }

    /// Reads the settings from `environment`, with the defaults above.
    public init(environment: [String: String]) {
        func counts(_ name: String, _ fallback: [Int]) -> [Int] {
            guard let text = environment[name] else { return fallback }
            return text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
        sizes = counts("SWIFT_KEYRING_BENCH_SIZES", [100, 1_000, 10_000])
        largeSizes = counts("SWIFT_KEYRING_BENCH_LARGE_SIZES", [100_000])
        maxDuration = .seconds(Double(environment["SWIFT_KEYRING_BENCH_MAX_SECONDS"] ?? "") ?? 2)
        maxIterations = Int(environment["SWIFT_KEYRING_BENCH_MAX_ITERATIONS"] ?? "") ?? 1_000
        secretServiceTimeout = .seconds(Double(environment["SWIFT_KEYRING_BENCH_TIMEOUT"] ?? "") ?? 600)
        let temporary = environment["TMPDIR"] ?? "/tmp"
        folder = URL(fileURLWithPath: environment["SWIFT_KEYRING_BENCH_DIR"] ?? "\(temporary)/swift-keyring-benchmarks")
    }
}
