import Foundation
import KeyringEtcd
import KeyringTestSupport
import SwiftKeyring

/// Keys, prefixes and records for the etcd tests.
enum Fixtures {
    static let url = URL(string: "https://registry.example.com/v2")!

    /// A folder of this test run's own, closed to other users.
    static let folder: URL = {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "keyring-etcd-tests-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }()

    /// The state folder of "this host": where the stores of the tests remember what they saw of
    /// the cluster (a test of two hosts gives the other one a folder of its own).
    static let hostState = folder.appendingPathComponent("host-state")

    /// The state folder of another host, new and empty.
    static func hostFolder() throws -> URL {
        let url = folder.appendingPathComponent("host-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        return url
    }

    /// A fresh 32-byte key file (mode 0600).
    static func keyFile(_ name: String = UUID().uuidString) throws -> URL {
        let url = folder.appendingPathComponent("\(name).key")
        var bytes = [UInt8](repeating: 0, count: 32)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255) }
        guard FileManager.default.createFile(atPath: url.path, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
        else {
            throw ClusterFailure("cannot write the key file \(url.path)")
        }
        return url
    }

    /// A prefix no other test uses.
    static func prefix() -> String { "test-\(UUID().uuidString.prefix(8))/" }

    /// A service no other test uses.
    static func service(_ name: String = "app") -> String { "com.example.\(name).\(UUID().uuidString.prefix(8))" }

    /// A store on `cluster` under `prefix`, sealed with `keyFile`.
    static func store(
        _ cluster: EtcdCluster, prefix: String, keyFile: URL, endpoints: [URL]? = nil, timeout: Duration = .seconds(5),
        stateFolder: URL = hostState
    ) throws -> EtcdStore {
        try EtcdStore(
            configuration: EtcdConfiguration(
                endpoints: endpoints ?? cluster.endpoints, prefix: prefix, timeout: timeout,
                secret: .keyFile(keyFile), stateFolder: stateFolder, environment: [:]))
    }

    /// The environment for the tool on `cluster`: etcd selected, sealed with `keyFile`, HOME of its own.
    static func toolEnvironment(_ cluster: EtcdCluster, prefix: String, keyFile: URL, home: String) -> [String: String] {
        [
            "HOME": home, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin",
            "SWIFT_KEYRING_BACKEND": "etcd", "SWIFT_KEYRING_ETCD_ENDPOINTS": cluster.endpointList,
            "SWIFT_KEYRING_ETCD_PREFIX": prefix, "SWIFT_KEYRING_KEY_FILE": keyFile.path,
        ]
    }

    static func credentials(_ username: String, password: String = "pa55-word", sync: Bool = false, background: Bool = false)
        throws -> Credentials
    {
        try Credentials(username: username, password: password, url: url, syncEnabled: sync, backgroundAccess: background)
    }
}
