import CKernelKeys
import Foundation
import SwiftKeyring

// The kernel store from processes other than the test's, for `KernelKeyringStoreTests`:
//
// The store is in the keyring SWIFT_KEYRING_KERNEL_KEYRING names (persistent by default).
//
//   KeyringTestWorker kernel-store churn SERVICE WORKER COUNT
//       COUNT rounds of set, get, list and (every third round) remove of the key
//       `wWORKER-N`, and (every fifth) a 40,000-byte password, which the store keeps in
//       parts. Prints `set KEY` once a set returned, `removed KEY` once a remove returned
//       true; a read that does not give back what this process set last prints `lost KEY`
//       and ends with status 1.
//   KeyringTestWorker kernel-store fill SERVICE
//       sets records of 1,000-byte passwords under k0, k1, … until a set fails, and
//       prints `acknowledged N` and `error: …`; then tries to replace k0 with a 15,000-byte
//       password (`replace error: …` when that fails), reads every acknowledged record back
//       (`intact N` for those unchanged) and removes them all.
//   KeyringTestWorker kernel-store set SERVICE KEY
//       sets the credentials record KEY (username alice, password p-KEY).
//   KeyringTestWorker kernel-store remove-all SERVICE
//       removes the service's records and prints how many.
//   KeyringTestWorker kernel-store get SERVICE KEY
//       prints `absent`, or `found` when this user's store has the record.
//   KeyringTestWorker kernel-store key-id SERVICE KEY
//       prints the id of the credentials record's key in this user's persistent keyring.
//   KeyringTestWorker kernel-store read-key ID
//       prints `readable` when this process can read key ID's payload, else `denied` and the reason.
enum KernelStoreWorker {
    static func run(_ arguments: [String]) -> Int32 {
        do {
            switch arguments.first {
            case "churn" where arguments.count == 4:
                // The test starts every worker from one barrier (AtOnce.processes), so they race
                // to make the service's keyring.
                guard let worker = Int(arguments[2]), let count = Int(arguments[3]) else { return usage() }
                return try churn(keyring(arguments[1]), worker: worker, count: count)
            case "fill" where arguments.count == 2:
                try fill(keyring(arguments[1]))
            case "set" where arguments.count == 3:
                try keyring(arguments[1]).set(try credentials("alice", "p-\(arguments[2])"), forKey: arguments[2])
            case "remove-all" where arguments.count == 2:
                print(try keyring(arguments[1]).removeAll())
            case "get" where arguments.count == 3:
                print(try keyring(arguments[1]).credentials(forKey: arguments[2]) == nil ? "absent" : "found")
            case "key-id" where arguments.count == 3:
                print(keyID(service: arguments[1], key: arguments[2]))
            case "read-key" where arguments.count == 2:
                guard let id = Int32(arguments[1]) else { return usage() }
                print(readKey(id))
            default:
                return usage()
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("KeyringTestWorker kernel-store: \(error)\n".utf8))
            return 1
        }
    }

    private static func keyring(_ service: String) throws -> Keyring {
        // SWIFT_KEYRING_KERNEL_KEYRING picks the keyring, as for the tool.
        try Keyring(service: service, store: KernelKeyringStore(scope: KeyringConfiguration().requestedKernelKeyring()))
    }

    private static func credentials(_ username: String, _ password: String) throws -> Credentials {
        try Credentials(username: username, password: password, url: URL(string: "https://example.com")!)
    }

    private static func say(_ line: String) {
        // Unbuffered, so the line is out before the next call starts.
        FileHandle.standardOutput.write(Data("\(line)\n".utf8))
    }

    private static func churn(_ keyring: Keyring, worker: Int, count: Int) throws -> Int32 {
        for round in 0..<count {
            let key = "w\(worker)-\(round)"
            let password = round % 5 == 4 ? String(repeating: "\(round % 10)", count: 40_000) : "p-\(key)"
            try keyring.set(try credentials("u\(worker)", password), forKey: key)
            say("set \(key)")
            guard try keyring.credentials(forKey: key)?.password == password else {
                say("lost \(key)")
                return 1
            }
            _ = try keyring.list()
            if round % 3 == 0, try keyring.remove(forKey: key) {
                say("removed \(key)")
            }
        }
        return 0
    }

    private static func fill(_ keyring: Keyring) throws {
        let password = { (index: Int) in String(repeating: "\(index % 10)", count: 1_000) }
        var acknowledged = 0
        var failure: (any Error)?
        while failure == nil, acknowledged < 10_000 {
            do {
                try keyring.set(try credentials("u\(acknowledged)", password(acknowledged)), forKey: "k\(acknowledged)")
                acknowledged += 1
            } catch {
                failure = error
            }
        }
        say("acknowledged \(acknowledged)")
        say("error: \(failure.map { "\($0)" } ?? "none")")
        do {
            try keyring.set(try credentials("u0", String(repeating: "r", count: 15_000)), forKey: "k0")
            say("replaced k0")
        } catch {
            say("replace error: \(error)")
        }
        var intact = 0
        for index in 0..<acknowledged {
            let read = try keyring.credentials(forKey: "k\(index)")
            if read?.username == "u\(index)" && read?.password == password(index) { intact += 1 }
        }
        say("intact \(intact)")
        say("removed \(try keyring.removeAll())")
    }

    private static func keyID(service: String, key: String) -> Int {
        let persistent = swift_keyring_keyctl(
            Int32(SWIFT_KEYRING_KEYCTL_GET_PERSISTENT), UInt(bitPattern: -1),
            UInt(bitPattern: Int(SWIFT_KEYRING_KEY_SPEC_PROCESS)), 0, 0)
        let ring = search(in: persistent, type: "keyring", "swift-keyring:\(service)")
        return search(in: ring, type: "user", "credentials:\(key)")
    }

    private static func search(in keyring: Int, type: String, _ description: String) -> Int {
        description.withCString { description in
            type.withCString { type in
                swift_keyring_keyctl(
                    Int32(SWIFT_KEYRING_KEYCTL_SEARCH), UInt(bitPattern: keyring), UInt(bitPattern: type),
                    UInt(bitPattern: description), 0)
            }
        }
    }

    private static func readKey(_ id: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 32_767)
        let read = buffer.withUnsafeMutableBytes { bytes in
            swift_keyring_keyctl(
                Int32(SWIFT_KEYRING_KEYCTL_READ), UInt(bitPattern: Int(id)), UInt(bitPattern: bytes.baseAddress),
                UInt(bytes.count), 0)
        }
        _ = buffer.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) }
        return read >= 0 ? "readable" : "denied \(String(cString: strerror(Int32(-read))))"
    }

    private static func usage() -> Int32 {
        FileHandle.standardError.write(
            Data("usage: KeyringTestWorker kernel-store churn|fill|set|remove-all|get|key-id|read-key …\n".utf8))
        return 64
    }
}
