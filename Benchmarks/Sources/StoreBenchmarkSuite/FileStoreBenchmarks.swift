import Benchmark
import KeyringWorkload
import SwiftKeyring

/// The benchmarks only the encrypted file store has: unlocking, and memory.
public enum FileStoreBenchmarks {
    /// The records in the files the unlock benchmarks open, so unlocking includes reading an index.
    static let unlockRecords = 1_000

    /// Registers "unlock (passphrase, Argon2id)" and "unlock (key file)": opening an
    /// existing file of 1,000 records and reading one record.
    public static func registerUnlock(settings: BenchmarkSettings) {
        registerUnlock("unlock (passphrase, Argon2id, \(unlockRecords) records)", settings: settings) { fixture in
            .passphrase(fixture.passphrase)
        }
        registerUnlock("unlock (key file, \(unlockRecords) records)", settings: settings) { fixture in
            .keyFile(fixture.keyFile)
        }
    }

    private static func registerUnlock(
        _ name: String, settings: BenchmarkSettings, secret: @escaping @Sendable (FileStoreFixture) -> FileStoreSecret
    ) {
        let fileName = name.hasPrefix("unlock (passphrase") ? "unlock.passphrase" : "unlock.keyfile"
        Benchmark(name, configuration: StoreBenchmarks.configuration(settings)) { _, fixture in
            let store = try EncryptedFileStore(url: fixture.url(fileName), secret: secret(fixture), createIfMissing: false)
            try Workload.lookup(0, in: try Keyring(service: "bench.unlock", store: store))
        } setup: {
            let fixture = try FileStoreFixture(folder: settings.folder)
            let store = try EncryptedFileStore(url: fixture.url(fileName), secret: secret(fixture))
            try Workload.ensurePopulated(try Keyring(service: "bench.unlock", store: store), count: unlockRecords)
            return fixture
        }
    }

    /// Registers "memory (N records)": a new store opens the file of N records and
    /// looks up every record; the figure to read is the peak resident memory.
    public static func registerMemory(count: Int, settings: BenchmarkSettings) {
        let configuration = Benchmark.Configuration(
            metrics: [.peakMemoryResident, .peakMemoryResidentDelta, .wallClock],
            timeUnits: .milliseconds,
            warmupIterations: 0,
            maxDuration: settings.maxDuration,
            maxIterations: 3
        )
        Benchmark("memory (\(count) records)", configuration: configuration) { _ in
            let keyring = try Keyring(
                service: "bench.\(count)", store: try BenchmarkStore.file.makeStore(fileName: "bench.\(count)"))
            try Workload.lookupEach(count, in: keyring)
        } setup: {
            let keyring = try Keyring(
                service: "bench.\(count)", store: try BenchmarkStore.file.makeStore(fileName: "bench.\(count)"))
            try Workload.ensurePopulated(keyring, count: count)
        }
    }
}
