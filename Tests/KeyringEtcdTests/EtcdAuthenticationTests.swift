import Foundation
import KeyringEtcd
import KeyringTestSupport
import SwiftKeyring
import Testing

/// etcd's user/password authentication, on a cluster of the test's own with authentication enabled.
@Suite("etcd store authentication")
struct EtcdAuthenticationTests {
    @Test("A user with a password file reads and writes its prefix; without one, or with a wrong one, a clear error")
    func userAndPasswordFile() throws {
        let cluster = try EtcdCluster.start()
        defer { cluster.stop() }
        let prefix = Fixtures.prefix()
        let password = "etcd-pw-\(UUID().uuidString.prefix(8))"
        // Users, a role on the prefix only, then authentication on, as an operator would.
        let passwordFile = try EtcdUsers.enableAuthentication(on: cluster, prefix: prefix, password: password)
        let keyFile = try Fixtures.keyFile()

        func store(user: String?, passwordFile: URL?) throws -> EtcdStore {
            try EtcdStore(
                configuration: EtcdConfiguration(
                    endpoints: cluster.endpoints, prefix: prefix, secret: .keyFile(keyFile),
                    user: user, passwordFile: passwordFile, allowsInsecureAuthentication: true,
                    stateFolder: Fixtures.hostState, environment: [:]))
        }
        let keyring = try Keyring(service: "com.example.auth", store: store(user: EtcdUsers.user, passwordFile: passwordFile))
        try keyring.set(try Fixtures.credentials("alice", password: "record-pw"), forKey: "k")
        #expect(try keyring.password(forKey: "k") == "record-pw")

        #expect {
            _ = try store(user: nil, passwordFile: nil)
        } throws: { error in
            guard let error = error as? KeyringError, error.code == .backend, let domain = error.backendDomain,
                let message = error.backendMessage
            else { return false }
            return domain == "etcd" && message.contains("requires authentication")
        }
        let wrongFile = Fixtures.folder.appendingPathComponent("etcd-wrong-\(UUID().uuidString.prefix(6))")
        _ = FileManager.default.createFile(
            atPath: wrongFile.path, contents: Data("not-it".utf8), attributes: [.posixPermissions: 0o600])
        #expect {
            _ = try store(user: "fleet", passwordFile: wrongFile)
        } throws: { error in
            guard let error = error as? KeyringError, error.code == .backend, let message = error.backendMessage else {
                return false
            }
            return message.contains("refused the user \"fleet\"") && !message.contains(password)
        }
    }
}
