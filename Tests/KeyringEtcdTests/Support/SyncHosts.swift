import Foundation
import KeyringEtcd
import KeyringTestSupport
import SwiftKeyring

/// "Hosts" of the sync tests: each has a local store of its own (a file in a folder of its
/// own, or the private gnome-keyring) and its own etcd state folder, and all share one
/// cluster under one prefix, sealed with one key, as a fleet would.
struct SyncFleet {
    let cluster: EtcdCluster
    let prefix = Fixtures.prefix()
    let keyFile: URL
    let service = Fixtures.service("sync")

    init(_ cluster: EtcdCluster) throws {
        self.cluster = cluster
        keyFile = try Fixtures.keyFile()
    }

    /// One host of the fleet.
    struct Host {
        let keyring: Keyring
        /// Where this host's local file is, when its local store is a file.
        let file: URL?
        let fileKey: URL?
        let stateFolder: URL
        var local: any CredentialStore { keyring.store }
        var shared: any CredentialStore { keyring.syncStore! }
    }

    /// A host whose local store is an encrypted file of its own (its "HOME").
    func fileHost(sharedTimeout: Duration = .seconds(5)) throws -> Host {
        let file = try FileStoreFixture.newFileURL()
        let fileKey = try FileStoreFixture.keyFile()
        let state = try Fixtures.hostFolder()
        let local = try EncryptedFileStore(url: file, secret: .keyFile(fileKey))
        let shared = try Fixtures.store(
            cluster, prefix: prefix, keyFile: keyFile, timeout: sharedTimeout, stateFolder: state)
        return Host(
            keyring: try Keyring(service: service, store: local, syncStore: shared, sharedCopies: Self.marks(state)),
            file: file, fileKey: fileKey, stateFolder: state)
    }

    /// A host whose local store is the private gnome-keyring of `Scripts/with-secret-service.sh`.
    func secretServiceHost() throws -> Host {
        let state = try Fixtures.hostFolder()
        let shared = try Fixtures.store(cluster, prefix: prefix, keyFile: keyFile, stateFolder: state)
        return Host(
            keyring: try Keyring(
                service: service, store: PrivateSecretService.makeStore(), syncStore: shared, sharedCopies: Self.marks(state)),
            file: nil, fileKey: nil, stateFolder: state)
    }

    /// A host's marks of keys that may have a shared copy, in its own state folder (as `sync-move-kill` finds them).
    static func marks(_ state: URL) -> SharedCopyMarks {
        SharedCopyMarks(folder: state.appendingPathComponent("shared-copies"))
    }

    /// The record ID of `key`'s credentials in this fleet's service.
    func id(_ key: String, _ kind: RecordKind = .credentials) -> RecordID {
        RecordID(service: service, key: key, kind: kind)
    }
}
