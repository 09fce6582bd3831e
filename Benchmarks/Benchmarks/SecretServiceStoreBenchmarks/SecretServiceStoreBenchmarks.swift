import Benchmark
import Foundation
import KeyringWorkload
import StoreBenchmarkSuite
import SwiftKeyring

// The Secret Service store against a real gnome-keyring. Run inside the private
// daemon: bash Scripts/with-secret-service.sh swift package benchmark --target SecretServiceStoreBenchmarks
//
// Sizes come from SWIFT_KEYRING_BENCH_SS_SIZES, else 100 and 1,000: filling
// gnome-keyring costs more per item the fuller it is (it rewrites its whole file
// on every change, see BENCHMARKS.md), so 10,000 records take hours to fill and
// are opt-in (SWIFT_KEYRING_BENCH_SS_SIZES=100,1000,10000). gnome-keyring's cost
// follows the whole collection, which holds every size's records, so for
// figures per size run one size per private daemon.
let benchmarks: @Sendable () -> Void = {
    let settings = BenchmarkSettings.current
    let environment = ProcessInfo.processInfo.environment
    let sizes =
        environment["SWIFT_KEYRING_BENCH_SS_SIZES"].map {
            BenchmarkSettings(environment: ["SWIFT_KEYRING_BENCH_SIZES": $0]).sizes
        } ?? settings.sizes.filter { $0 <= 1_000 }
    StoreBenchmarks.register(sizes: sizes, settings: settings) { service in
        try Keyring(service: service, store: try BenchmarkStore.secretService.makeStore())
    }
}
