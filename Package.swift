// swift-tools-version:6.0
import PackageDescription

// The executables bind every symbol when they load (`-z now`), not at its first call: the
// dynamic linker's lazy-binding trampoline saves every vector register on the stack, and those
// memcpy or memcmp had just moved a password through stayed there (CLISecretCoreTests). It also
// makes the relocated data read-only (full RELRO). Unsafe flags, but only in executable targets:
// SwiftPM refuses them in the targets of a product a dependent links, and nothing links an
// executable, so packages that depend on this one by version still build (checked with SwiftPM
// 6.3.1: a `.library` target with the same flag is refused, "contains unsafe build flags").
let bindAtLoad: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "-z", "-Xlinker", "now"])]

let package = Package(
    name: "swift-keyring",
    products: [
        .library(name: "SwiftKeyring", targets: ["SwiftKeyring"]),
        .library(name: "KeyringSession", targets: ["KeyringSession"]),
        // The HTTP client that logs in again quietly: a product of its own, so an app that
        // only keeps a session never loads FoundationNetworking (libcurl and its TLS stack).
        .library(name: "KeyringAuthentication", targets: ["KeyringAuthentication"]),
        // The fleet store on etcd, in a product of its own: users of Keyring alone build none of it.
        .library(name: "KeyringEtcd", targets: ["KeyringEtcd"]),
        // Form validation rules (devise's, in Swift): Keyring checks records with them, and an app
        // can check its own forms with them without a keyring. No dependency, not even Foundation.
        .library(name: "KeyringValidation", targets: ["KeyringValidation"]),
        // For authors of stores and apps, as NIOTestUtils is for channel handlers: the conformance
        // checks every CredentialStore must pass, and a login server to test quiet re-authentication.
        .library(name: "KeyringTestKit", targets: ["KeyringTestKit"]),
        .executable(name: "swift-keyring", targets: ["swift-keyring"]),
        // git runs `git-credential-swift-keyring ACTION` for `credential.helper = swift-keyring`.
        .executable(name: "git-credential-swift-keyring", targets: ["git-credential-swift-keyring"]),
        // docker, podman, skopeo and buildah run `docker-credential-swift-keyring ACTION` for a
        // `credsStore` or `credHelpers` entry naming `swift-keyring`.
        .executable(name: "docker-credential-swift-keyring", targets: ["docker-credential-swift-keyring"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // libgcrypt, loaded (dlopen) when crypto is first needed, not linked; its functions
        // are listed in Sources/CGcrypt/include/CGcryptFunctions.h. Building needs <gcrypt.h>
        // (libgcrypt20-dev).
        .target(name: "CGcrypt", linkerSettings: [.linkedLibrary("dl")]),
        // The kernel's key retention service through its two system calls (add_key, keyctl), in
        // glibc already: nothing to load or link, no libkeyutils, no -dev package to build.
        .target(name: "CKernelKeys"),
        .target(name: "KeyringValidation"),
        // libgcrypt set-up, secure buffers, HKDF, HMAC, AES-GCM, Argon2id, record sealing and the
        // keyed header: what the file store, the etcd store and the Secret Service transfer share.
        .target(name: "KeyringCrypto", dependencies: ["CGcrypt"]),
        .target(
            name: "SwiftKeyring",
            dependencies: [
                "KeyringValidation",
                "CGcrypt",
                "CKernelKeys",
                "KeyringCrypto",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "KeyringSession",
            dependencies: [
                "SwiftKeyring",
                "KeyringValidation",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "KeyringAuthentication",
            dependencies: [
                "KeyringSession",
                // CurlTransport: libcurl, loaded when it first sends.
                "CCurl",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
            ]
        ),
        // libcurl for the etcd store (HTTP/1.1 with keep-alive, TLS with a CA file and a client certificate)
        // and for KeyringAuthentication's CurlTransport (answers bounded in time and length as they arrive).
        // Loaded (dlopen) when an etcd store opens or CurlTransport first sends, not linked: the tool starts without libcurl's
        // thirty-odd libraries. Building needs curl's headers (libcurl4-openssl-dev); "dl" because
        // dlopen lived in libdl before glibc 2.34.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "KeyringEtcd", dependencies: ["SwiftKeyring", "KeyringCrypto", "CCurl"]),
        // No test framework imported: failures are returned or thrown, so XCTest and Swift Testing both call it.
        .target(name: "KeyringTestKit", dependencies: ["SwiftKeyring"]),
        // What the tool and the git credential helper share: the store options and their
        // environment variables, opening the keyring, messages and exit statuses, and the
        // git credential records (the helper writes them, the tool's `import` copies into them).
        .target(
            name: "KeyringCommandLine",
            dependencies: [
                "SwiftKeyring",
                "KeyringCrypto",
                "KeyringEtcd",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "swift-keyring",
            dependencies: [
                "SwiftKeyring",
                "KeyringCrypto",
                "KeyringEtcd",
                "KeyringCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            linkerSettings: bindAtLoad
        ),
        .executableTarget(
            name: "git-credential-swift-keyring",
            dependencies: [
                "SwiftKeyring",
                // Array.wipe, for the standard input that carries the password on `store`.
                "KeyringCrypto",
                "KeyringCommandLine",
                .product(name: "Logging", package: "swift-log"),
            ],
            linkerSettings: bindAtLoad
        ),
        .executableTarget(
            name: "docker-credential-swift-keyring",
            dependencies: ["KeyringCommandLine"],
            linkerSettings: bindAtLoad
        ),
        // What every test target shares: the stores under test (the Secret Service only
        // the private one of Scripts/with-secret-service.sh, never the developer's own),
        // real files in private folders, child processes.
        .target(name: "KeyringTestSupport", dependencies: ["SwiftKeyring", "KeyringEtcd"], path: "Tests/KeyringTestSupport"),
        .testTarget(
            name: "KeyringTests",
            dependencies: [
                "SwiftKeyring",
                "KeyringCrypto",
                "KeyringValidation",
                "KeyringTestKit",
                "KeyringTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "KeyringValidationTests", dependencies: ["KeyringValidation"]),
        // The kit's own checks: stores broken on purpose, each of which it must reject.
        .testTarget(name: "KeyringTestKitTests", dependencies: ["KeyringTestKit", "SwiftKeyring"]),
        // Against a real 3-node cluster (Scripts/with-etcd.sh); depends on the tool for its exit-status tests.
        .testTarget(
            name: "KeyringEtcdTests",
            dependencies: ["KeyringEtcd", "SwiftKeyring", "KeyringSession", "KeyringCrypto", "KeyringTestSupport", "swift-keyring"]
        ),
        // Depends on the tool so `swift build --build-tests` builds the binary these tests run, and so
        // CLICommandLineShortcutTests can hold the tool's own parser against ArgumentParser.
        .testTarget(
            name: "CLITests",
            dependencies: [
                "swift-keyring", "git-credential-swift-keyring", "docker-credential-swift-keyring",
                "KeyringCommandLine", "KeyringTestSupport", "KeyringTestKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "KeyringSessionTests",
            dependencies: [
                "KeyringSession",
                "KeyringAuthentication",
                "SwiftKeyring",
                "KeyringTestSupport",
                "KeyringTestKit",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        // Run by the encrypted file store's multi-process tests, the sync tests' kill between a move's
        // two steps and the answer limit's memory tests, which find it beside the test bundle.
        .executableTarget(
            name: "KeyringTestWorker",
            dependencies: [
                "SwiftKeyring", "KeyringEtcd", "KeyringAuthentication", "CKernelKeys",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/KeyringTestWorker"),
    ],
    swiftLanguageModes: [.v6]
)

// The documentation plugin only when building the documentation (Scripts/docs.sh sets
// SWIFT_KEYRING_DOCS), as GRDB does, so people who depend on the library never fetch it.
if Context.environment["SWIFT_KEYRING_DOCS"] == "1" {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
