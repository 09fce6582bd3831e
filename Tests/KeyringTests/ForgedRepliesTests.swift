import Foundation
import Glibc
import KeyringTestSupport
import SwiftKeyring
import Testing

/// Who answers on the bus (issue 34): another program of the same session bus may send a
/// connection replies nobody asked for, and play a Secret Service at its own unique name.
/// The daemon is whoever the bus says owns `org.freedesktop.secrets`, and a reply counts
/// only from the connection its call went to; so the forger (`FakeSecretService.Mode.forge`)
/// fools no read of the one client. The real daemon here is a fake that answers
/// 20 ms late, so that the forger's replies come first.
@Suite("Replies forged by another program on the bus")
struct ForgedRepliesTests {
    private static let service = "forged-ours"
    private static let rounds = 10

    /// Whether `read` gave our password: a Bool, so that a failure never prints a password.
    private static func isOurs(_ read: String?) -> Bool {
        read.map { Array($0.utf8) == Array("our-password".utf8) } ?? false
    }

    @Test("No read takes the forger's password, while the forger fools a client that does not check")
    func forgerFoolsNoRead() throws {
        let fake = try FakeSecretService(.normal)
        try Keyring(service: Self.service, store: fake.makeStore())
            .set(try Samples.credentials(password: "our-password"), forKey: "work")
        try fake.setMode(.slow)
        let forger = try fake.startForger()
        defer { ChildProcess.terminate(forger) }

        // The forger is at work: dbus-send (libdbus) takes the first reply with its serial.
        var foolsDBusSend = 0
        for _ in 1...Self.rounds {
            let output = try ChildProcess.run(
                [
                    "dbus-send", "--session", "--print-reply", "--reply-timeout=5000", "--dest=org.freedesktop.secrets",
                    "/org/freedesktop/secrets", "org.freedesktop.DBus.Properties.Get",
                    "string:org.freedesktop.Secret.Service", "string:Collections",
                ], environment: fake.environment, timeout: .seconds(10))
            if String(decoding: output.standardOutput, as: UTF8.self).contains("string \":") { foolsDBusSend += 1 }
        }
        #expect(foolsDBusSend > 0, "the forger fooled dbus-send in none of \(Self.rounds) calls: it is not at work")

        // The tool and the git helper, as new processes (each a new connection the forger goes after).
        let products = TestWorker.executable.deletingLastPathComponent()
        var tool = fake.environment
        tool["SWIFT_KEYRING_BACKEND"] = "secret-service"
        tool["SWIFT_KEYRING_SERVICE"] = Self.service
        var git = fake.environment
        git["SWIFT_KEYRING_BACKEND"] = "secret-service"
        let helper = products.appendingPathComponent("git-credential-swift-keyring").path
        let stored = try ChildProcess.run(
            [helper, "store"], environment: git,
            input: Data("protocol=https\nhost=forged.example\nusername=bob\npassword=our-password\n\n".utf8))
        try #require(stored.status == 0, "\(stored.standardError)")

        for round in 1...Self.rounds {
            let get = try ChildProcess.run(
                [products.appendingPathComponent("swift-keyring").path, "get", "work"], environment: tool)
            // Bools, so that a failure never prints a password.
            let getIsOurs = get.standardOutput == Data("our-password\n".utf8)
            #expect(getIsOurs, "round \(round): the tool's get (status \(get.status))")
            let json = try ChildProcess.run(
                [products.appendingPathComponent("swift-keyring").path, "get", "work", "--json"], environment: tool)
            let jsonIsOurs = String(decoding: json.standardOutput, as: UTF8.self).contains("\"password\":\"our-password\"")
            #expect(jsonIsOurs, "round \(round): the tool's get --json (status \(json.status))")
            let fill = try ChildProcess.run(
                [helper, "get"], environment: git, input: Data("protocol=https\nhost=forged.example\n\n".utf8))
            let fillIsOurs = String(decoding: fill.standardOutput, as: UTF8.self).contains("password=our-password\n")
            #expect(fillIsOurs, "round \(round): the git helper's get (status \(fill.status))")

            let keyring = try Keyring(service: Self.service, store: fake.makeStore())
            #expect(Self.isOurs(try keyring.password(forKey: "work")), "round \(round): the store's password read")
            #expect(Self.isOurs(try keyring.credentials(forKey: "work")?.password), "round \(round): the store's record read")
            let chosen = try keyring.chosenPassword(choosing: { $0 })
            #expect(Self.isOurs(chosen?.password), "round \(round): the chosen read")
        }
    }
}

/// Which socket is the session bus (issue 34): a socket file another user owns, or a runtime
/// folder that is not this user's private one, is never connected to; the error names the
/// socket and its owner.
@Suite("The session bus socket's owner")
struct SessionBusOwnerTests {
    /// A listening socket at a new path in a new folder, owned by uid 65534 (nobody).
    private static func foreignSocket() throws -> (folder: String, socket: String, descriptor: Int32) {
        try #require(geteuid() == 0, "making a socket another user owns needs root, as the test suite runs")
        let folder = "/tmp/swift-keyring-foreign-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let socket = folder + "/bus"
        let descriptor = try HostileBus.listeningSocket(at: socket)
        try #require(chown(socket, 65534, 65534) == 0 && chown(folder, 65534, 65534) == 0 && chmod(folder, 0o700) == 0)
        return (folder, socket, descriptor)
    }

    @Test("A bus socket another user owns is refused, naming the socket and its owner")
    func foreignSocketRefused() throws {
        let (folder, socket, descriptor) = try Self.foreignSocket()
        defer {
            close(descriptor)
            try? FileManager.default.removeItem(atPath: folder)
        }
        for environment in [["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(socket)"], ["XDG_RUNTIME_DIR": folder]] {
            #expect("\(environment.keys.first!)") {
                _ = try SecretServiceStore(timeout: .seconds(2), environment: environment)
            } throws: { error in
                let text = String(describing: error)
                return (error as? KeyringError)?.code == .insecurePermissions && text.contains(socket) && text.contains("65534")
                    || environment["XDG_RUNTIME_DIR"] != nil && text.contains(folder) && text.contains("65534")
            }
            // auto never connects there either: the probe names why and the file is chosen.
            let probe = SecretServiceStore.probe(timeout: .seconds(2), environment: environment)
            #expect(probe != .available, "\(environment.keys.first!): the probe took the foreign bus")
        }
    }

    @Test("A runtime folder others may enter is not where the bus is looked for")
    func openRuntimeFolderIgnored() throws {
        let folder = "/tmp/swift-keyring-open-runtime-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #require(chmod(folder, 0o777) == 0)
        #expect {
            _ = try SecretServiceStore(timeout: .seconds(2), environment: ["XDG_RUNTIME_DIR": folder])
        } throws: { error in
            (error as? KeyringError)?.code == .serviceUnavailable && String(describing: error).contains(folder)
        }
    }
}
