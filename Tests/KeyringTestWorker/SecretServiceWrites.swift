import Foundation
import SwiftKeyring

// Writes to the Secret Service the environment names, from a process other than
// the test's, for `SecretServiceMemoryTests`:
//
//   KeyringTestWorker secret-service set SERVICE KEY USER-INDEX SECRET-INDEX
//   KeyringTestWorker secret-service remove SERVICE KEY
//   KeyringTestWorker secret-service remove-all SERVICE
//   KeyringTestWorker secret-service writes SERVICE KEY COUNT
//
// A record written here has the username `user-U` and the password `secret-S`,
// so a reader can tell which write it saw. `writes` makes writes 1…COUNT in
// turn: the username and password of write N (an in-place change of attributes
// and secret); a removal followed by write N (a new item); and write N's
// password under write N-1's username (a change of the secret alone). After each
// write returns it prints "N U" on a line of its own: the write and the U of its
// username, so the reader needs no copy of this schedule.
enum SecretServiceWrites {
    static func run(_ arguments: [String]) -> Int32 {
        do {
            switch arguments.first {
            case "set" where arguments.count == 5:
                guard let user = Int(arguments[3]), let secret = Int(arguments[4]) else { return usage() }
                try keyring(arguments[1]).set(credentials(user: user, secret: secret), forKey: arguments[2])
            case "remove" where arguments.count == 3:
                _ = try keyring(arguments[1]).remove(forKey: arguments[2])
            case "remove-all" where arguments.count == 2:
                _ = try keyring(arguments[1]).removeAll()
            case "writes" where arguments.count == 4:
                guard let count = Int(arguments[3]) else { return usage() }
                try writes(keyring(arguments[1]), key: arguments[2], count: count)
            default:
                return usage()
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("KeyringTestWorker secret-service: \(error)\n".utf8))
            return 1
        }
    }

    /// The username of write `n` of `writes`: every third write keeps the one before.
    private static func user(ofWrite n: Int) -> Int {
        n % 3 == 2 ? n - 1 : n
    }

    private static func writes(_ keyring: Keyring, key: String, count: Int) throws {
        for n in 1...count {
            if n % 3 == 1 {
                _ = try keyring.remove(forKey: key)
            }
            try keyring.set(credentials(user: user(ofWrite: n), secret: n), forKey: key)
            FileHandle.standardOutput.write(Data("\(n) \(user(ofWrite: n))\n".utf8))
            // Room for the reader to read from memory between writes.
            usleep(20_000)
        }
    }

    private static func keyring(_ service: String) throws -> Keyring {
        try Keyring(service: service, store: SecretServiceStore(timeout: .seconds(10)))
    }

    private static func credentials(user: Int, secret: Int) throws -> Credentials {
        try Credentials(username: "user-\(user)", password: "secret-\(secret)", url: URL(string: "https://example.com")!)
    }

    private static func usage() -> Int32 {
        FileHandle.standardError.write(
            Data("usage: KeyringTestWorker secret-service set|remove|remove-all|writes …\n".utf8))
        return 64
    }
}
