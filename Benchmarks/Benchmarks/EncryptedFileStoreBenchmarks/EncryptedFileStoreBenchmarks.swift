import Benchmark
import KeyringWorkload
import StoreBenchmarkSuite
import SwiftKeyring

// The encrypted file store: the five store benchmarks (each size in its own
// file), unlocking with a passphrase (Argon2id at the recommended cost) and with
// a key file, and peak memory at the largest size.
let benchmarks: @Sendable () -> Void = {
    let settings = BenchmarkSettings.current
    let sizes = settings.sizes + settings.largeSizes
    StoreBenchmarks.register(sizes: sizes, settings: settings) { service in
        try Keyring(service: service, store: try BenchmarkStore.file.makeStore(fileName: service))
    }
    FileStoreBenchmarks.registerUnlock(settings: settings)
    if let largest = sizes.max() {
        FileStoreBenchmarks.registerMemory(count: largest, settings: settings)
    }
}
