import Foundation
import SwiftKeyring

// Run by `FakeSecretServiceTests`, so the figure is this process's alone and no other test's:
//
//   KeyringTestWorker secret-service-read-memory SERVICE KEY
//
// Opens the Secret Service the environment names and lists SERVICE (the connection made,
// the session bus greeted, no secret read), resets the peak (/proc/self/clear_refs), reads
// the password under KEY, and prints one line, sizes in KiB:
//
//   baseline=KiB peak=KiB outcome=read|<KeyringError code>
enum SecretServiceReadMemory {
    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count == 2 else {
            FileHandle.standardError.write(Data("usage: KeyringTestWorker secret-service-read-memory SERVICE KEY\n".utf8))
            return 64
        }
        let outcome: String
        var baseline = 0
        do {
            let keyring = try Keyring(service: arguments[0], store: SecretServiceStore(timeout: .seconds(30)))
            _ = try keyring.list()
            try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
            baseline = status("VmRSS")
            _ = try keyring.password(forKey: arguments[1])
            outcome = "read"
        } catch let error as KeyringError {
            outcome = error.code.name
            // The error's words (no secret is ever in them), for the test's message.
            FileHandle.standardError.write(Data("\(error)\n".utf8))
        } catch {
            outcome = "\(type(of: error))"
        }
        print("baseline=\(baseline) peak=\(status("VmHWM")) outcome=\(outcome)")
        return 0
    }

    /// A size line of /proc/self/status, in KiB.
    private static func status(_ name: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return 0
    }
}
