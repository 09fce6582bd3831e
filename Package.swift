// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "swift-keyring",
    products: [
        .library(name: "Keyring", targets: ["Keyring"]),
        .library(name: "KeyringSession", targets: ["KeyringSession"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // System libraries: the C workarounds live in each module's shim.h.
        .systemLibrary(
            name: "CLibSecret",
            pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]
        ),
        .systemLibrary(
            name: "CGcrypt",
            pkgConfig: "libgcrypt",
            providers: [.apt(["libgcrypt20-dev"])]
        ),
        .target(
            name: "Keyring",
            dependencies: [
                "CLibSecret",
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
        .testTarget(name: "KeyringTests", dependencies: ["Keyring"]),
        .testTarget(
            name: "KeyringSessionTests",
            dependencies: [
                "KeyringSession",
                "Keyring",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Run by the encrypted file store's multi-process tests, which find it beside the test bundle.
        .executableTarget(name: "KeyringTestWorker", dependencies: ["Keyring"], path: "Tests/KeyringTestWorker"),
    ],
    swiftLanguageModes: [.v6]
)
