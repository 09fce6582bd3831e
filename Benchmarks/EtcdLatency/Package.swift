// swift-tools-version:6.0
// Lookup and store latency of the etcd fleet store against a raw /v3/kv/range round trip,
// from one process; run by Benchmarks/etcd-latency.sh on a private 3-node loopback cluster.
// A package of its own, like the other benchmarks, so the library's users never build it.
import PackageDescription
let package = Package(
    name: "etcd-latency",
    dependencies: [.package(name: "swift-keyring", path: "../..")],
    targets: [.executableTarget(name: "etcd-latency", dependencies: [
        .product(name: "Keyring", package: "swift-keyring"), .product(name: "KeyringEtcd", package: "swift-keyring")])],
    swiftLanguageModes: [.v6]
)
