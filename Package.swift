// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "swift-keyring",
    products: [
        .library(name: "Keyring", targets: ["Keyring"]),
        .library(name: "KeyringSession", targets: ["KeyringSession"]),
        .executable(name: "swift-keyring", targets: ["swift-keyring"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // System libraries, each behind a thin shim.h.
        .systemLibrary(
            name: "CLibSecret",
            pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]
        ),
        // The libsecret glue that is more than a call wrapper, in C files of its own.
        .target(name: "CLibSecretShims", dependencies: ["CLibSecret"]),
        .systemLibrary(
            name: "CGcrypt",
            pkgConfig: "libgcrypt",
            providers: [.apt(["libgcrypt20-dev"])]
        ),
        .target(
            name: "Keyring",
            dependencies: [
                "CLibSecret",
                "CLibSecretShims",
                "CGcrypt",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "KeyringSession",
            dependencies: [
                "Keyring",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
            ]
        ),
        .executableTarget(
            name: "swift-keyring",
            dependencies: [
                "Keyring",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "KeyringTests",
            dependencies: [
                "Keyring",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        // Depends on the tool so `swift build --build-tests` builds the binary these tests run.
        .testTarget(name: "CLITests", dependencies: ["swift-keyring"]),
        .testTarget(
            name: "KeyringSessionTests",
            dependencies: [
                "KeyringSession",
                "Keyring",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        // Run by the encrypted file store's multi-process tests, which find it beside the test bundle.
        .executableTarget(name: "KeyringTestWorker", dependencies: ["Keyring"], path: "Tests/KeyringTestWorker"),
    ],
    swiftLanguageModes: [.v6]
)

// The documentation plugin only when building the documentation (Scripts/docs.sh sets
// SWIFT_KEYRING_DOCS), as GRDB does, so people who depend on the library never fetch it.
if Context.environment["SWIFT_KEYRING_DOCS"] == "1" {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
