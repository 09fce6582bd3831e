import Foundation
import KeyringTestSupport
import Testing

/// KWallet right after login: `pam_kwallet5` opened the wallet, and its collection still reads
/// locked until a client asks to unlock it, which needs no person then. When several clients
/// ask at once (apps starting together), kwalletd5 5.103 completes or removes all but one of
/// their unlock prompts before they are shown ("No such object path
/// '/org/freedesktop/secrets/prompt/p1'"): `secret-tool` fails then, and so did one
/// `swift-keyring` process in 32. Every process of ours must get through.
///
/// Runs in a pass of its own, on a kwalletd5 just started and nobody unlocked:
/// `SWIFT_KEYRING_KWALLET_LOCKED=1 Scripts/with-kwallet.sh` (Scripts/test.sh runs it).
@Suite("CLI: clients at login on KWallet")
struct CLIKWalletLoginTests {
    /// Whether this run is that pass.
    static var atLogin: Bool {
        PrivateSecretService.daemon == .kwallet && ProcessInfo.processInfo.environment["SWIFT_KEYRING_KWALLET_LOCKED"] == "1"
    }

    @Test(
        "Eight swift-keyring processes started together on the still-locked collection all store, and read back",
        .enabled(if: atLogin, "runs only on a kwalletd5 just started (SWIFT_KEYRING_KWALLET_LOCKED=1 Scripts/with-kwallet.sh)"))
    func eightAtOnce() throws {
        let sandbox = try Sandbox()
        let environment = sandbox.secretServiceEnvironment()
        // Nobody unlocked the collection yet, or the test proves nothing.
        let locked = try ChildProcess.run(
            [
                "dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.secrets",
                "/org/freedesktop/secrets/aliases/default", "org.freedesktop.DBus.Properties.Get",
                "string:org.freedesktop.Secret.Collection", "string:Locked",
            ], environment: try PrivateSecretService.environment())
        try #require(
            String(decoding: locked.standardOutput, as: UTF8.self).contains("boolean true"),
            "the collection is not locked at the start: \(locked.standardError)")

        let services = (0..<8).map { "cli-login-\($0).\(UUID().uuidString.lowercased())" }
        defer {
            for service in services {
                _ = try? CLI.run(["remove-all", "--yes", "--service", service], environment: environment, timeout: 60)
            }
        }
        let results = Results(count: services.count)
        // Eight processes that wait on one pipe and start together, so all find the collection locked.
        let reached = try AtOnce.processes(services.count) { index, barrier in
            results.set(
                index,
                Result {
                    try ChildProcess.run(
                        barrier + [
                            CLI.binary.path, "set", "work", "--username", "u\(index)", "--url", "https://example.com",
                            "--service", services[index], "--prompt-timeout", "10",
                        ], environment: environment, input: Data("pw-\(index)".utf8), timeout: .seconds(60))
                })
        }
        print("CLIKWalletLoginTests: \(reached) of \(services.count) processes were waiting on the barrier when it opened")
        #expect(reached == services.count, "only \(reached) of \(services.count) processes reached the barrier")
        for (index, result) in results.all.enumerated() {
            let output = try result.get()
            #expect(output.status == 0, "set \(index): exit \(output.status), \(output.standardError)")
            let read = try CLI.run(["get", "work", "--service", services[index]], environment: environment)
            #expect(read.stdout == "pw-\(index)\n", "get \(index): \(read.stderr)")
        }
    }

    /// The processes' outcomes, one slot each, filled from several threads.
    private final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [Result<ChildProcess.Output, any Error>?]

        init(count: Int) {
            slots = Array(repeating: nil, count: count)
        }

        func set(_ index: Int, _ result: Result<ChildProcess.Output, any Error>) {
            lock.withLock { slots[index] = result }
        }

        var all: [Result<ChildProcess.Output, any Error>] {
            lock.withLock { slots.map { $0 ?? .failure(CancellationError()) } }
        }
    }
}
