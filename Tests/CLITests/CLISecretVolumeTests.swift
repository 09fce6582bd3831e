import Foundation
import KeyringTestSupport
import Testing

/// The tool with its key in a Kubernetes Secret volume (`key -> ..data/key`, `..data -> ..TIMESTAMP/`).
@Suite("CLI: key and passphrase files behind a Secret volume's links")
struct CLISecretVolumeTests {
    /// The volume as the kubelet lays it out, in folders of root (this test runs as root), 0755.
    private func secretVolume(in sandbox: Sandbox, content: Data) throws -> (volume: URL, link: URL) {
        let volume = sandbox.folder.appendingPathComponent("secret-volume")
        let data = volume.appendingPathComponent("..2026_12_02_02_45_00.123456789")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        #expect(chmod(sandbox.folder.path, 0o755) == 0 && chmod(volume.path, 0o755) == 0 && chmod(data.path, 0o755) == 0)
        try FileStoreFixture.writePrivate(content, to: data.appendingPathComponent("key"))
        #expect(symlink(data.lastPathComponent, volume.appendingPathComponent("..data").path) == 0)
        let link = volume.appendingPathComponent("key")
        #expect(symlink("..data/key", link.path) == 0)
        return (volume, link)
    }

    @Test("set and get with SWIFT_KEYRING_KEY_FILE or SWIFT_KEYRING_PASSPHRASE_FILE naming the volume's link")
    func accepted() throws {
        for variable in ["SWIFT_KEYRING_KEY_FILE", "SWIFT_KEYRING_PASSPHRASE_FILE"] {
            let sandbox = try Sandbox()
            let content = variable.hasSuffix("KEY_FILE") ? FileStoreFixture.randomKey() : Data("pod passphrase\n".utf8)
            let (_, link) = try secretVolume(in: sandbox, content: content)
            var environment = sandbox.fileEnvironment()
            environment["SWIFT_KEYRING_KEY_FILE"] = nil
            environment[variable] = link.path
            let set = try CLI.run(
                ["set", "ci", "--username", "bot", "--url", "https://git.example"], stdin: "volume-pw",
                environment: environment)
            #expect(set.status == 0, "\(variable): \(set.stderr)")
            let get = try CLI.run(["get", "ci"], environment: environment)
            #expect(get.status == 0 && get.stdout == "volume-pw\n", "\(variable): \(get.stderr)")
        }
    }

    @Test(
        "77: the same link in a folder another user owns, naming the folder and the key file; nothing written",
        .enabled(if: geteuid() == 0, "only root can give a folder away"))
    func foreignFolder() throws {
        let sandbox = try Sandbox()
        let (volume, link) = try secretVolume(in: sandbox, content: FileStoreFixture.randomKey())
        #expect(chown(volume.path, 65534, 65534) == 0)
        let environment = sandbox.fileEnvironment(["SWIFT_KEYRING_KEY_FILE": link.path])
        let set = try CLI.run(
            ["set", "ci", "--username", "bot", "--url", "https://git.example"], stdin: "volume-pw", environment: environment)
        #expect(set.status == 77)
        #expect(set.stderr.contains("Refusing to use \(volume.path) (the key file): "), "\(set.stderr)")
        #expect(set.stderr.contains("belongs to user 65534"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.keyringFile.path))
        #expect(!FileManager.default.fileExists(atPath: sandbox.keyringFile.deletingLastPathComponent().path))
    }

    @Test("77: a key file its group may read is refused, named as the key file; a passphrase file as the passphrase file")
    func groupReadable() throws {
        for variable in ["SWIFT_KEYRING_KEY_FILE", "SWIFT_KEYRING_PASSPHRASE_FILE"] {
            let sandbox = try Sandbox()
            let path = sandbox.folder.appendingPathComponent("secret").path
            let content = variable.hasSuffix("KEY_FILE") ? FileStoreFixture.randomKey() : Data("a passphrase\n".utf8)
            #expect(FileManager.default.createFile(atPath: path, contents: content))
            #expect(chmod(path, 0o640) == 0)
            var environment = sandbox.fileEnvironment()
            environment["SWIFT_KEYRING_KEY_FILE"] = nil
            environment[variable] = path
            let result = try CLI.run(["get"], environment: environment)
            let name = variable.hasSuffix("KEY_FILE") ? "the key file" : "the passphrase file"
            #expect(result.status == 77)
            #expect(
                result.stderr.contains(
                    "Refusing to use \(path) (\(name)): its mode 0640 lets its group read it; "
                        + "a key or passphrase file must be readable by its owner only; chmod 600 it."), "\(result.stderr)")
        }
    }
}
