import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// A read wipes the bytes the store returned, not a copy of them: after it, the password is in
/// the reading process's memory once, in the value returned, and nowhere else, freed memory included.
@Suite("Secrets wiped after a read")
struct SecretWipeTests {
    @Test(
        "After a read from the kernel store, the only copy of the password in the process is the value returned",
        arguments: ["credentials", "password", "async-credentials", "async-password"])
    func onlyTheValueReturned(read: String) throws {
        let service = TestStore.uniqueService("wipe")
        let keyring = try Keyring(service: service, store: KernelKeyringStore())
        defer { _ = try? keyring.removeAll() }
        // Random, so no other copy can be in the worker by chance; the worker is given it reversed.
        let password = "wipe-\(UUID().uuidString)-\(UUID().uuidString)"
        try keyring.set(try Samples.credentials("alice", password: password), forKey: "work")
        let output = try ChildProcess.run(
            [TestWorker.executable.path, "memory-scan", service, "work", String(password.reversed()), read])
        let lines = String(decoding: output.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(output.status == 0, "\(output.standardError)")
        // The scan sees a copy where there is one: the value returned.
        #expect(lines.contains("returned-seen true"), "\(lines)")
        #expect(lines.contains("stray 0"), "copies besides the value returned: \(lines)")
    }
}
