import Benchmark
import KeyringWorkload
import StoreBenchmarkSuite
import SwiftKeyring

// The in-memory store: the cost of the Keyring layer itself (validation,
// conversion), the floor under every real store. One store per process, so the
// benchmarks' shared-service scheme works as it does for the real stores.
let benchmarks: @Sendable () -> Void = {
    let store = MemoryStore()
    StoreBenchmarks.register(sizes: BenchmarkSettings.current.sizes, settings: .current) { service in
        try Keyring(service: service, store: store)
    }
}
