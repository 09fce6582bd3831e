import Foundation
import KeyringEtcd
import SwiftKeyring
import Testing

/// Settings are checked before anything is sent: a bad one names its variable.
@Suite("etcd configuration")
struct EtcdConfigurationTests {
    @Test("Endpoints: comma-separated http(s) URLs; anything else names the variable")
    func endpoints() throws {
        let parsed = try EtcdConfiguration(environment: [
            "SWIFT_KEYRING_ETCD_ENDPOINTS": " http://10.0.0.1:2379, https://e2:2379 ,"
        ])
        #expect(parsed.endpoints.map(\.absoluteString) == ["http://10.0.0.1:2379", "https://e2:2379"])
        #expect(try EtcdConfiguration(environment: [:]).endpoints.map(\.absoluteString) == ["http://127.0.0.1:2379"])
        #expect(
            throws: KeyringError.invalidConfiguration(
                setting: "SWIFT_KEYRING_ETCD_ENDPOINTS",
                reason: "\"unix:///run/etcd.sock\" is not an http:// or https:// URL with a host")
        ) {
            _ = try EtcdConfiguration(environment: ["SWIFT_KEYRING_ETCD_ENDPOINTS": "http://a:1,unix:///run/etcd.sock"])
        }
    }

    @Test("A missing TLS file, or a certificate without its key, names the variable")
    func tlsFiles() throws {
        for variable in ["SWIFT_KEYRING_ETCD_CA_FILE", "SWIFT_KEYRING_ETCD_CERT_FILE", "SWIFT_KEYRING_ETCD_KEY_FILE"] {
            #expect(
                throws: KeyringError.invalidConfiguration(setting: variable, reason: "there is no file at /nonexistent/x.pem")
            ) {
                _ = try EtcdConfiguration(environment: [variable: "/nonexistent/x.pem"])
            }
        }
        let certificate = try Fixtures.keyFile("not-really-a-certificate")
        #expect {
            _ = try EtcdConfiguration(environment: ["SWIFT_KEYRING_ETCD_CERT_FILE": certificate.path])
        } throws: { error in
            guard let error = error as? KeyringError, error.code == .invalidConfiguration, let field = error.setting else {
                return false
            }
            return field == "SWIFT_KEYRING_ETCD_KEY_FILE"
        }
    }

    @Test("Authentication needs both the user and the password file")
    func authenticationPair() throws {
        #expect {
            _ = try EtcdConfiguration(environment: ["SWIFT_KEYRING_ETCD_USER": "fleet"])
        } throws: { error in
            guard let error = error as? KeyringError, error.code == .invalidConfiguration, let field = error.setting else {
                return false
            }
            return field == "SWIFT_KEYRING_ETCD_PASSWORD_FILE"
        }
        #expect(try EtcdConfiguration(environment: ["SWIFT_KEYRING_ETCD_PREFIX": "team-a/"]).prefix == "team-a/")
    }

    @Test("An endpoint carrying a user name or password is refused, and neither is echoed")
    func endpointUserInfo() throws {
        let secret = "pw-in-endpoint-\(UUID().uuidString)"
        for endpoints in ["http://root:\(secret)@127.0.0.1:2379", "http://root:\(secret)@[::1"] {
            #expect {
                _ = try EtcdConfiguration(environment: ["SWIFT_KEYRING_ETCD_ENDPOINTS": endpoints])
            } throws: { error in
                guard let error = error as? KeyringError, error.code == .invalidConfiguration, let setting = error.setting else {
                    return false
                }
                return setting == "SWIFT_KEYRING_ETCD_ENDPOINTS" && !"\(error)".contains(secret)
            }
        }
    }

    @Test("dump of a configuration shows the environment's names, never a passphrase in it")
    func dumpHidesTheEnvironment() throws {
        let passphrase = "etcd-passphrase-\(UUID().uuidString)"
        let configuration = try EtcdConfiguration(environment: ["SWIFT_KEYRING_PASSPHRASE": passphrase])
        var text = ""
        dump(configuration, to: &text)
        #expect(text.contains("SWIFT_KEYRING_PASSPHRASE"))
        #expect(!text.contains(passphrase))
    }
}

/// `Keyring` alone does not open etcd, and says where it lives instead of "unknown word".
@Suite("etcd and Keyring's own selection")
struct EtcdSelectionTests {
    @Test("SWIFT_KEYRING_BACKEND=etcd in a program that uses Keyring alone names KeyringEtcd")
    func keyringAloneNamesTheModule() throws {
        #expect {
            _ = try Keyring(
                service: "com.example.app", configuration: KeyringConfiguration(environment: ["SWIFT_KEYRING_BACKEND": "etcd"]))
        } throws: { error in
            guard let error = error as? KeyringError, error.code == .invalidConfiguration, let field = error.setting,
                let reason = error.reason
            else { return false }
            return field == "SWIFT_KEYRING_BACKEND" && reason.contains("KeyringEtcd")
        }
    }
}
