import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// The store's own Secret Service session (`SecretTransfer`) encrypts every secret on
/// the bus: a bus monitor records the whole exchange, from the key exchange on,
/// and finds the password in none of the messages.
@Suite("Secret Service: secrets are encrypted on the bus")
struct SecretServiceSessionTests {
    @Test("A bus monitor sees the key exchange, the writes and the reads, but never the password")
    func monitorSeesNoPassword() throws {
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("swift-keyring-monitor-\(UUID()).pcap")
        defer { try? FileManager.default.removeItem(at: capture) }
        try #require(FileManager.default.createFile(atPath: capture.path, contents: nil), "no capture file")
        let output = try FileHandle(forWritingTo: capture)
        let monitor = Process()
        monitor.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-monitor")
        monitor.arguments = ["--session", "--pcap"]
        monitor.environment = try PrivateSecretService.environment()
        monitor.standardOutput = output
        try monitor.run()
        // The capture's header is written once the monitor is in place.
        let until = ContinuousClock.now + .seconds(10)
        while (try? FileManager.default.attributesOfItem(atPath: capture.path)[.size] as? Int) ?? 0 == 0,
            ContinuousClock.now < until
        {
            usleep(20_000)
        }
        usleep(200_000)

        let password = "monitor-check-\(UUID().uuidString)"
        let service = TestStore.uniqueService("session")
        do {
            // A new store, so its key exchange happens while the monitor records.
            let keyring = try Keyring(service: service, store: PrivateSecretService.makeStore())
            defer { _ = try? keyring.removeAll() }
            try keyring.set(try Samples.credentials(password: password), forKey: "work")
            try keyring.set(try Samples.credentials(password: password + "-changed"), forKey: "work")
            for _ in 0..<3 {
                let same = try keyring.credentials(forKey: "work")?.password == password + "-changed"
                #expect(same, "the record read back has another password")
            }
            let samePassword = try keyring.password(forKey: "work") == password + "-changed"
            #expect(samePassword)
        }
        usleep(200_000)
        // SIGKILL: the test runner's children may inherit SIGTERM ignored. dbus-monitor
        // flushes each message it records, so nothing is lost.
        kill(monitor.processIdentifier, SIGKILL)
        monitor.waitUntilExit()
        try output.close()

        let recorded = try Data(contentsOf: capture)
        for evidence in ["dh-ietf1024-sha256-aes128-cbc-pkcs7", "OpenSession", "CreateItem", "SetSecret", "GetSecrets"] {
            #expect(recorded.range(of: Data(evidence.utf8)) != nil, "the monitor recorded no \(evidence)")
        }
        let leaked = recorded.range(of: Data(password.utf8)) != nil
        #expect(!leaked, "the password crossed the bus unencrypted")
    }
}
