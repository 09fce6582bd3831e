import Foundation
import KeyringEtcd
import KeyringTestSupport
import SwiftKeyring
import Testing

/// https members with a private CA and client certificates (`--client-cert-auth`), on a cluster of the test's own.
@Suite("etcd store TLS")
struct EtcdTLSTests {
    @Test("With the CA file and a client certificate the store works; without either, it is unavailable and says why")
    func caAndClientCertificate() throws {
        let folder = Fixtures.folder.appendingPathComponent("tls-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Certificates.make(in: folder)
        let cluster = try EtcdCluster.start(tls: folder)
        defer { cluster.stop() }
        #expect(cluster.endpoints.allSatisfy { $0.scheme == "https" })
        let file = { (name: String) in folder.appendingPathComponent(name) }
        let keyFile = try Fixtures.keyFile()

        func store(_ tls: EtcdTLS) throws -> EtcdStore {
            try EtcdStore(
                configuration: EtcdConfiguration(
                    endpoints: cluster.endpoints, prefix: "tls/", timeout: .seconds(2), secret: .keyFile(keyFile), tls: tls,
                    stateFolder: Fixtures.hostState, environment: [:]))
        }
        let keyring = try Keyring(
            service: "com.example.tls",
            store: store(EtcdTLS(caFile: file("ca.pem"), certificateFile: file("client.pem"), keyFile: file("client-key.pem"))))
        try keyring.set(try Fixtures.credentials("alice", password: "over-tls"), forKey: "k")
        #expect(try keyring.password(forKey: "k") == "over-tls")

        // The members' CA is not the system's: without the CA file the certificate is not trusted.
        #expect {
            _ = try store(EtcdTLS(certificateFile: file("client.pem"), keyFile: file("client-key.pem")))
        } throws: { error in
            guard let error = error as? KeyringError, error.unavailability?.kind == .noCluster else { return false }
            return error.unavailability?.detail.contains("not trusted") == true && error.place == .etcd
        }
        // Without a client certificate the members refuse the connection.
        #expect {
            _ = try store(EtcdTLS(caFile: file("ca.pem")))
        } throws: { error in
            (error as? KeyringError)?.code == .serviceUnavailable
        }
    }
}

/// A private CA, a certificate for the members (127.0.0.1) and one for a client, made with openssl.
enum Certificates {
    static func make(in folder: URL) throws {
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        try "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n".write(
            toFile: path("server.ext"), atomically: true, encoding: .utf8)
        try "extendedKeyUsage=clientAuth\n".write(toFile: path("client.ext"), atomically: true, encoding: .utf8)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(
            ["req", "-x509"] + ec + [
                "-keyout", path("ca-key.pem"), "-out", path("ca.pem"), "-days", "2", "-subj", "/CN=swift-keyring test CA",
            ])
        for name in ["server", "client"] {
            try openssl(["req"] + ec + ["-keyout", path("\(name)-key.pem"), "-out", path("\(name).csr"), "-subj", "/CN=\(name)"])
            try openssl([
                "x509", "-req", "-in", path("\(name).csr"), "-CA", path("ca.pem"), "-CAkey", path("ca-key.pem"),
                "-CAcreateserial", "-out", path("\(name).pem"), "-days", "2", "-extfile", path("\(name).ext"),
            ])
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path("\(name)-key.pem"))
        }
    }

    private static func openssl(_ arguments: [String]) throws {
        let result = try Command.run("openssl", arguments)
        guard result.status == 0 else { throw ClusterFailure("openssl \(arguments[0]) failed: \(result.stderr)") }
    }
}
