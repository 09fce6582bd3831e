import Foundation
import KeyringEtcd
import SwiftKeyring
import Testing

/// The stores the conformance suite runs against. Each case makes a fresh,
/// real store; a store that cannot be made fails the test (never skips it).
package enum TestStore: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory
    /// An encrypted file in a private temporary folder, opened with a random raw key.
    case encryptedFile
    /// The private Secret Service: gnome-keyring (`Scripts/with-secret-service.sh`),
    /// KeePassXC (`Scripts/with-keepassxc.sh`) or KWallet (`Scripts/with-kwallet.sh`), as
    /// `PrivateSecretService.daemon` says.
    case secretService
    /// The fleet store on the 3-node etcd cluster of `Scripts/with-etcd.sh` (or one this
    /// process starts), under a prefix of this process's own, sealed with a random raw key.
    case etcd
    /// libsecret's own keyring file in a private temporary folder, with a random password.
    case libsecretFile
    /// The kernel store in the user's persistent keyring, under a service of the test's own.
    case kernel

    package var testDescription: String {
        self == .secretService ? "\(rawValue) (\(PrivateSecretService.daemon.rawValue))" : rawValue
    }

    /// The stores this run tests: all of them, but only the Secret Service in the
    /// KeePassXC and KWallet passes of `Scripts/test.sh`, since the others were tested in the first pass.
    package static var underTest: [TestStore] {
        PrivateSecretService.daemon == .gnomeKeyring ? allCases : [.secretService]
    }

    /// A keyring on a fresh store with a service name no other test uses.
    package func makeKeyring(service: String = TestStore.uniqueService()) throws -> Keyring {
        switch self {
        case .memory:
            return try Keyring(service: service, store: MemoryStore())
        case .encryptedFile:
            return try Keyring(service: service, store: FileStoreFixture.store())
        case .secretService:
            return try Keyring(service: service, store: PrivateSecretService.makeStore())
        case .libsecretFile:
            return try Keyring(service: service, store: LibsecretFileFixture.store())
        case .kernel:
            return try Keyring(service: service, store: KernelKeyringStore())
        case .etcd:
            let configuration = try EtcdConfiguration(
                endpoints: try EtcdCluster.shared().endpoints, prefix: Self.etcdPrefix, timeout: .seconds(5),
                secret: .key(Self.etcdKey), stateFolder: Self.etcdHostState, environment: [:])
            return try Keyring(service: service, store: EtcdStore(configuration: configuration))
        }
    }

    /// One prefix and key for this process's etcd stores, as a fleet shares them.
    private static let etcdPrefix = "test-\(UUID().uuidString.prefix(8).lowercased())/"
    private static let etcdKey = FileStoreFixture.randomKey()
    /// Where those stores remember what they saw of the cluster: not the user's own state folder.
    private static let etcdHostState = try! TemporaryFolder.make()

    /// A service name unique to one test, so tests sharing a daemon never see each other's records.
    package static func uniqueService(_ prefix: String = "test") -> String {
        "\(prefix).\(UUID().uuidString.lowercased())"
    }
}
