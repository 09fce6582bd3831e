import Foundation
import KeyringEtcd
import SwiftKeyring

// Run by `SyncAcrossHostsTests` to stop a move between its two steps with a real kill:
//
//   KeyringTestWorker sync-move-kill FILE FILE-KEY ENDPOINTS PREFIX ETCD-KEY STATE SERVICE KEY PASSWORD to-shared|to-local
//
// Opens a two-store keyring (the encrypted FILE as the local store, etcd at
// ENDPOINTS under PREFIX as the shared one, its host memory in STATE and the keys
// that may have a shared copy marked in STATE/shared-copies, as `SyncFleet` keeps them) and sets KEY's credentials with the sync
// flag on (to-shared) or off (to-local). The store the move's second step removes
// from kills this process (SIGKILL) when that removal starts, so the first step has
// happened and the second never does, as with a crash. Exits 1 if it lives on.
enum SyncMoveKill {
    /// A store that dies, as a crashed host does, when asked to remove a record.
    final class DyingOnRemoval: CredentialStore {
        let inner: any CredentialStore
        init(_ inner: any CredentialStore) { self.inner = inner }
        var identity: StoreIdentity { inner.identity }
        func record(for id: RecordID, call: StoreCall) throws -> StoredRecord? { try inner.record(for: id, call: call) }
        func save(_ record: StoredRecord, call: StoreCall) throws { try inner.save(record, call: call) }
        func removeRecord(for id: RecordID, call: StoreCall) throws -> Bool {
            kill(getpid(), SIGKILL)
            return false
        }
        func summaries(service: String, kind: RecordKind?, call: StoreCall) throws -> [RecordSummary] {
            try inner.summaries(service: service, kind: kind, call: call)
        }
        func removeAll(service: String, kind: RecordKind?, call: StoreCall) throws -> Int {
            try inner.removeAll(service: service, kind: kind, call: call)
        }
    }

    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count == 10, ["to-shared", "to-local"].contains(arguments[9]) else {
            FileHandle.standardError.write(
                Data(
                    "usage: KeyringTestWorker sync-move-kill FILE FILE-KEY ENDPOINTS PREFIX ETCD-KEY STATE SERVICE KEY PASSWORD to-shared|to-local\n"
                        .utf8))
            return 64
        }
        let toShared = arguments[9] == "to-shared"
        do {
            let local: any CredentialStore = try EncryptedFileStore(
                url: URL(fileURLWithPath: arguments[0]), secret: .keyFile(URL(fileURLWithPath: arguments[1])))
            let shared: any CredentialStore = try EtcdStore(
                configuration: EtcdConfiguration(
                    endpoints: arguments[2].split(separator: ",").compactMap { URL(string: String($0)) },
                    prefix: arguments[3], secret: .keyFile(URL(fileURLWithPath: arguments[4])),
                    stateFolder: URL(fileURLWithPath: arguments[5]), environment: [:]))
            let keyring = try Keyring(
                service: arguments[6],
                store: toShared ? DyingOnRemoval(local) : local,
                syncStore: toShared ? shared : DyingOnRemoval(shared),
                sharedCopies: SharedCopyMarks(folder: URL(fileURLWithPath: arguments[5]).appendingPathComponent("shared-copies")))
            try keyring.set(
                Credentials(
                    username: "mover", password: arguments[8], url: URL(string: "https://registry.example.com/v2")!,
                    syncEnabled: toShared),
                forKey: arguments[7])
            FileHandle.standardError.write(Data("the move finished: its second step never ran\n".utf8))
            return 1
        } catch {
            FileHandle.standardError.write(Data("KeyringTestWorker: \(error)\n".utf8))
            return 2
        }
    }
}
