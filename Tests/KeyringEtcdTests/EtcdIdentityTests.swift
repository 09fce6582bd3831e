import Foundation
import KeyringEtcd
import KeyringTestSupport
import SwiftKeyring
import Testing

/// An etcd keyring says it is one, to the program and to the person running `doctor`.
@Suite("etcd store identity")
struct EtcdIdentityTests {
    @Test("A keyring on EtcdStore reports etcd, with the endpoints and prefix and no secret; its calls get the store's timeout")
    func selection() throws {
        let cluster = try EtcdCluster.shared()
        let prefix = Fixtures.prefix()
        let store = try Fixtures.store(cluster, prefix: prefix, keyFile: try Fixtures.keyFile(), timeout: .seconds(4))
        let keyring = try Keyring(service: Fixtures.service(), store: store)
        #expect(keyring.selection.kind == .etcd)
        #expect(store.identity.kind == .etcd)
        #expect(store.callTimeout == .seconds(4))
        let details = Dictionary(uniqueKeysWithValues: store.identity.details.map { ($0.label, $0.value) })
        #expect(details["endpoints"] == cluster.endpoints.map(\.absoluteString).joined(separator: ","))
        #expect(details["prefix"] == prefix)
        #expect(details["cluster"]?.isEmpty == false)
    }

    @Test("doctor names the etcd store and why it was chosen")
    func doctor() throws {
        let cluster = try EtcdCluster.shared()
        let prefix = Fixtures.prefix()
        let environment = Fixtures.toolEnvironment(
            cluster, prefix: prefix, keyFile: try Fixtures.keyFile(), home: Fixtures.folder.path)
        let report = try Command.run(Command.tool, ["doctor"], environment: environment)
        #expect(report.status == 0, "stderr: \(report.stderr)")
        #expect(report.text.contains("store:            etcd (forced by SWIFT_KEYRING_BACKEND; prefix \(prefix))"))
        let json = try Command.run(Command.tool, ["doctor", "--json"], environment: environment)
        #expect(json.text.contains("\"store\":\"etcd\""))
    }
}
