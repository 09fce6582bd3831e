// swift-tools-version:6.1
import PackageDescription

// The benchmarks live in their own package so that users of the library never
// download benchmark dependencies. `swift package benchmark` runs the suites in
// Benchmarks/; `bash Benchmarks/compare.sh` runs the comparison with libsecret,
// Python keyring and secret-tool (see BENCHMARKS.md).
let storeBenchmarkDependencies: [Target.Dependency] = [
    "KeyringWorkload",
    "StoreBenchmarkSuite",
    .product(name: "SwiftKeyring", package: "swift-keyring"),
    .product(name: "Benchmark", package: "benchmark"),
]

let package = Package(
    name: "swift-keyring-benchmarks",
    dependencies: [
        // Named, because a path package is otherwise known by its folder, which differs between clones.
        .package(name: "swift-keyring", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The workload every suite and the comparison share: records, keys, timing.
        .target(
            name: "KeyringWorkload",
            dependencies: [.product(name: "SwiftKeyring", package: "swift-keyring")]
        ),
        // The benchmarks every store gets, registered with package-benchmark.
        .target(
            name: "StoreBenchmarkSuite",
            dependencies: [
                "KeyringWorkload",
                .product(name: "SwiftKeyring", package: "swift-keyring"),
                .product(name: "Benchmark", package: "benchmark"),
            ]
        ),
        // The comparison's Swift side: runs the workload once and prints µs/op lines.
        .executableTarget(
            name: "keyring-compare",
            dependencies: [
                "KeyringWorkload",
                .product(name: "SwiftKeyring", package: "swift-keyring"),
                .product(name: "KeyringEtcd", package: "swift-keyring"),
            ]
        ),
        .executableTarget(
            name: "MemoryStoreBenchmarks",
            dependencies: storeBenchmarkDependencies,
            path: "Benchmarks/MemoryStoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "SecretServiceStoreBenchmarks",
            dependencies: storeBenchmarkDependencies,
            path: "Benchmarks/SecretServiceStoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "EncryptedFileStoreBenchmarks",
            dependencies: storeBenchmarkDependencies,
            path: "Benchmarks/EncryptedFileStoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
