import Foundation
import KeyringEtcd
import KeyringWorkload
import SwiftKeyring

// The Swift side of Benchmarks/compare.sh: the comparison workload on one of
// our stores, through the public Keyring API, printing one machine-readable
// line per phase, "PHASE<TAB>COUNT<TAB>MICROSECONDS_PER_OP", as the C and
// Python programs do.
//
//   keyring-compare STORE COUNT [store|bulk-store|lookup|lookup-password|lookup-again|lookup-password-again|lookup-absent|async-overhead|remove|removeall|memory]…
//
// STORE is a `BenchmarkStore` name or `etcd` (the fleet store on the cluster named by
// SWIFT_KEYRING_ETCD_ENDPOINTS, under a prefix of its own). `lookup-absent` looks up keys that
// are not there: on etcd, one range round trip with nothing to decrypt, the lookup's floor.
// `lookup-again` and `lookup-password-again` look every record up once untimed, then
// time a second pass: the lookups of a long-lived program, which on gnome-keyring a
// store answers from what it remembers (SecretServiceStore, one D-Bus call each).
// `async-overhead` prints "lookup-sync-median" and "lookup-async-median", the
// median microseconds of sync and async lookups interleaved over records
// 0..<COUNT (stored by an earlier phase), ten rounds.
//
// With SWIFT_KEYRING_COMPARE_SYNC_STORE=etcd the keyring has two stores (issue 23): STORE
// is its local store and the fleet store on SWIFT_KEYRING_ETCD_ENDPOINTS its shared one.
// `store` then writes device-only records (their lookups never leave the machine) and
// `store-synced` records with the sync flag (their lookups miss locally, then ask etcd).
//
// `memory` prints "baseline-resident-bytes<TAB>COUNT<TAB>BYTES" (the process
// before it opened a store) and "peak-resident-bytes<TAB>COUNT<TAB>BYTES" (the
// high-water mark so far).

let baselineResidentBytes = PeakMemory.residentBytes() ?? 0

let usage =
    "usage: keyring-compare STORE COUNT [store|store-synced|bulk-store|lookup|lookup-password|lookup-again|lookup-password-again|"
    + "lookup-absent|async-overhead|remove|removeall|memory]…"
let arguments = CommandLine.arguments.dropFirst()
let storeName = arguments.first ?? ""
guard arguments.count >= 2, storeName == "etcd" || BenchmarkStore(rawValue: storeName) != nil,
    let count = Int(arguments[arguments.startIndex + 1]), count >= 0
else {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(64)
}
let phases = arguments.count > 2 ? Array(arguments.dropFirst(2)) : ["store", "lookup", "remove", "removeall"]

func line(_ phase: String, _ value: Double) {
    // Unbuffered, so compare.sh sees each phase as it ends.
    FileHandle.standardOutput.write(Data("\(phase)\t\(count)\t\(String(format: "%.3f", value))\n".utf8))
}

do {
    // Opening the store (connecting to D-Bus, deriving the file's key) is not part of any operation.
    // SWIFT_KEYRING_COMPARE_SERVICE lets a second process reopen what a first one stored.
    let service =
        ProcessInfo.processInfo.environment["SWIFT_KEYRING_COMPARE_SERVICE"] ?? WorkloadAccounts.uniqueService("compare")
    func etcdStore() throws -> EtcdStore {
        // The file benchmarks' raw key, so no KDF runs; a fresh prefix, so runs never meet.
        let fixture = try FileStoreFixture(folder: BenchmarkSettings.current.folder)
        return try EtcdStore(
            configuration: EtcdConfiguration(
                prefix: "compare-\(UInt32.random(in: 0...UInt32.max))/", secret: .keyFile(fixture.keyFile),
                // Each run's prefix is new: its marks belong with the run's files, not in the user's state.
                stateFolder: fixture.folder.appending(path: "etcd-state")))
    }
    let store: any CredentialStore = try BenchmarkStore(rawValue: storeName)?.makeStore() ?? etcdStore()
    let syncStore: (any CredentialStore)? =
        ProcessInfo.processInfo.environment["SWIFT_KEYRING_COMPARE_SYNC_STORE"] == "etcd" ? try etcdStore() : nil
    // The marks of keys that may have a shared copy belong with the run's files too.
    let marks = SharedCopyMarks(folder: BenchmarkSettings.current.folder.appending(path: "shared-copies"))
    let keyring = try Keyring(service: service, store: store, syncStore: syncStore, sharedCopies: marks)
    _ = try keyring.credentials(forKey: "nothing")
    // Whether records 0..<count are stored now, so removeall refills only when needed.
    var present = false
    for phase in phases {
        switch phase {
        case "store":
            line(phase, try Stopwatch.microsecondsPerOperation(count) { try Workload.storeEach(count, in: keyring) })
            present = true
        case "store-synced":
            line(phase, try Stopwatch.microsecondsPerOperation(count) { try Workload.storeEach(count, in: keyring, sync: true) })
            present = true
        case "bulk-store":
            // Fills a file store with one write (EncryptedFileStore.save(contentsOf:)), as an import would.
            line(phase, try Stopwatch.microsecondsPerOperation(count) { try Workload.bulkStore(count, in: keyring) })
            present = true
        case "lookup":
            line(phase, try Stopwatch.microsecondsPerOperation(count) { try Workload.lookupEach(count, in: keyring) })
        case "lookup-password":
            line(phase, try Stopwatch.microsecondsPerOperation(count) { try Workload.lookupPasswordEach(count, in: keyring) })
        case "lookup-again":
            try Workload.lookupEach(count, in: keyring)
            line(phase, try Stopwatch.microsecondsPerOperation(count) { try Workload.lookupEach(count, in: keyring) })
        case "lookup-password-again":
            try Workload.lookupPasswordEach(count, in: keyring)
            line(phase, try Stopwatch.microsecondsPerOperation(count) { try Workload.lookupPasswordEach(count, in: keyring) })
        case "async-overhead":
            let (sync, async) = try waitFor { try await AsyncOverhead.medians(count, rounds: 10, in: keyring) }
            line("lookup-sync-median", sync)
            line("lookup-async-median", async)
        case "lookup-absent":
            line(phase, try Stopwatch.microsecondsPerOperation(count) { try Workload.lookupAbsentEach(count, in: keyring) })
        case "remove":
            line(phase, try Stopwatch.microsecondsPerOperation(count) { try Workload.removeEach(count, from: keyring) })
            present = false
        case "removeall":
            if !present { try Workload.storeEach(count, in: keyring) }
            line(phase, try Stopwatch.microsecondsPerOperation(count) { try Workload.removeAll(count, from: keyring) })
            present = false
        case "memory":
            line("baseline-resident-bytes", Double(baselineResidentBytes))
            line("peak-resident-bytes", Double(PeakMemory.peakResidentBytes() ?? 0))
        default:
            FileHandle.standardError.write(Data("keyring-compare: unknown phase \(phase)\n\(usage)\n".utf8))
            exit(64)
        }
    }
} catch {
    // KeyringError and WorkloadFailure descriptions never carry secrets.
    FileHandle.standardError.write(Data("keyring-compare: \(error)\n".utf8))
    exit(1)
}

/// Runs `body` in a task and blocks this (main, not cooperative) thread until it ends.
func waitFor<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var outcome: Result<Value, any Error>?
    Task.detached {
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        done.signal()
    }
    done.wait()
    return try outcome!.get()
}
