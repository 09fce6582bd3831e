import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// libsecret files someone else put in the store's way: a FIFO, a file or folder others
/// can open, PBKDF2 costs and salts outside the bounds, a file too large to read.
@Suite("libsecret file: hostile files and permissions")
struct LibsecretFileHostileFilesTests {
    private let password = LibsecretFileFixture.randomPassword()

    private func open(_ url: URL, createIfMissing: Bool = true) throws -> LibsecretFileStore {
        try LibsecretFileStore(url: url, key: .secret(.passphrase(password)), createIfMissing: createIfMissing)
    }

    /// An empty keyring file by hand, as docs/LIBSECRET_FILE_FORMAT.md lays it out: header, version,
    /// then `(uayutua(a{say}ay))` with `salt`, `iterations`, no items, and the salt's one framing offset.
    private func emptyFile(salt: [UInt8], iterations: UInt32) -> Data {
        func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        func pad(_ bytes: inout [UInt8], _ alignment: Int) {
            while bytes.count % alignment != 0 { bytes.append(0) }
        }
        var body = littleEndian(UInt32(salt.count)) + salt
        let saltEnd = body.count
        pad(&body, 4)
        body += littleEndian(iterations)
        pad(&body, 8)
        body += littleEndian(UInt64(1_700_000_000)) + littleEndian(UInt32(0))
        let width = body.count + 1 <= 0xFF ? 1 : 2
        body += littleEndian(UInt64(saltEnd)).prefix(width)
        return Data(Array("GnomeKeyring\n\r".utf8) + [0, 0x0A, 1, 0] + body)
    }

    private func place(_ bytes: Data) throws -> URL {
        let url = try LibsecretFileFixture.newFileURL()
        try FileStoreFixture.writePrivate(bytes, to: url)
        return url
    }

    @Test("A file made by hand the way the format document says opens as an empty keyring, and takes a record")
    func handMadeFile() throws {
        let url = try place(emptyFile(salt: Array(repeating: 7, count: 32), iterations: 1_000))
        let keyring = try Keyring(service: "s", store: open(url))
        #expect(try keyring.secretKeys().isEmpty)
        try keyring.setSecret(Data("v".utf8), forKey: "k")
        #expect(try Keyring(service: "s", store: open(url)).secret(forKey: "k") == Data("v".utf8))
    }

    @Test("A FIFO at the file's path is refused at once, not waited on")
    func fifo() throws {
        let url = try LibsecretFileFixture.newFileURL()
        #expect(mkfifo(url.path, 0o600) == 0)
        let error = BoundedCall.keyringError { [password] in
            try LibsecretFileStore(url: url, key: .secret(.passphrase(password)))
        }
        #expect(error == .insecurePermissions(path: url.path, reason: "it is not a regular file"))
    }

    @Test(
        "A PBKDF2 iteration count outside 1,000…1,000,000 is refused as damaged, naming it, before any key is derived",
        arguments: [0, 1, 999, 1_000_001, 100_000_000, UInt32.max])
    func iterationBounds(iterations: UInt32) throws {
        let url = try place(emptyFile(salt: Array(repeating: 7, count: 32), iterations: iterations))
        #expect(
            throws: KeyringError.damaged(
                reason: "\(url.path): its PBKDF2 iteration count \(iterations) is outside 1000…1000000")
        ) {
            try open(url)
        }
    }

    @Test(
        "A salt outside 8…1024 bytes, or one its size field does not match, is refused as damaged", arguments: [0, 1, 7, 1_025])
    func saltBounds(length: Int) throws {
        let url = try place(emptyFile(salt: Array(repeating: 7, count: length), iterations: 1_000))
        #expect(throws: KeyringError.damaged(reason: "\(url.path): its salt of \(length) bytes is outside 8...1024")) {
            try open(url)
        }
        var mismatched = [UInt8](emptyFile(salt: Array(repeating: 7, count: 32), iterations: 1_000))
        mismatched[18] = 31
        let other = try place(Data(mismatched))
        #expect(throws: KeyringError.damaged(reason: "\(other.path): its salt size 31 is not the salt's length 32")) {
            try open(other)
        }
    }

    @Test("A file larger than 32 MiB is refused as damaged without being read")
    func tooLarge() throws {
        let url = try LibsecretFileFixture.newFileURL()
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]))
        #expect(truncate(url.path, 32 * 1024 * 1024 + 1) == 0)
        #expect(
            throws: KeyringError.damaged(reason: "\(url.path): it is 33554433 bytes, more than the 33554432 read")
        ) {
            try open(url)
        }
    }

    @Test("A new file is 0600 in a new 0700 folder, beside its lock file only")
    func createdPrivate() throws {
        let base = try TemporaryFolder.make()
        let folder = base.appendingPathComponent("data/keyrings", isDirectory: true)
        let store = try open(folder.appendingPathComponent("default.keyring"))
        try Keyring(service: "s", store: store).setSecret(Data("v".utf8), forKey: "k")
        #expect(try FileStoreFixture.permissions(store.url) == 0o600)
        #expect(try FileStoreFixture.permissions(folder) == 0o700)
        #expect(try FileStoreFixture.permissions(base.appendingPathComponent("data")) == 0o700)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                "default.keyring", "default.keyring.lock",
            ])
    }

    @Test("A file others can read is refused and left as it was", arguments: [0o644, 0o640, 0o604])
    func openFile(mode: Int) throws {
        let url = try LibsecretFileFixture.newFileURL()
        try Keyring(service: "s", store: open(url)).setSecret(Data("v".utf8), forKey: "k")
        #expect(chmod(url.path, mode_t(mode)) == 0)
        let before = try Data(contentsOf: url)
        let reason = "its mode 0\(String(mode, radix: 8)) lets group or other users in (it must be 0600); chmod 600 it"
        #expect(throws: KeyringError.insecurePermissions(path: url.path, reason: reason)) {
            try open(url)
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("A folder others may only enter (libsecret makes its folder 0755 under the usual umask) is closed to 0700")
    func readableFolder() throws {
        let folder = try TemporaryFolder.make().appendingPathComponent("keyrings")
        #expect(mkdir(folder.path, 0o755) == 0)
        _ = try open(folder.appendingPathComponent("default.keyring"))
        let mode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test("A folder others may write is refused, naming the fix, and left as it was", arguments: [0o775, 0o757, 0o777])
    func writableFolder(mode: Int) throws {
        let folder = try TemporaryFolder.make().appendingPathComponent("keyrings")
        #expect(mkdir(folder.path, 0o700) == 0 && chmod(folder.path, mode_t(mode)) == 0)
        let reason = "its mode 0\(String(mode, radix: 8)) lets group or other users in (it must be 0700); chmod 700 it"
        #expect(throws: KeyringError.insecurePermissions(path: folder.path, reason: reason)) {
            try open(folder.appendingPathComponent("default.keyring"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int == mode)
    }

    @Test("A missing file is an error when creating is not allowed, and nothing is made")
    func missingFile() throws {
        let url = try LibsecretFileFixture.newFileURL()
        #expect(throws: KeyringError.serviceUnavailable(reason: .noKeyringFile(path: url.path))) {
            try open(url, createIfMissing: false)
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("A secret and a file past 64 KiB (four-byte framing offsets) go both ways with secret-tool")
    func largeValues() throws {
        let url = try LibsecretFileFixture.newFileURL()
        let big = String(repeating: "0123456789abcdef", count: 5_000)
        let keyring = try Keyring(service: "big", store: open(url))
        try keyring.setSecret(Data(big.utf8), forKey: "ours")
        #expect(try Data(contentsOf: url).count > 0x1_0000)
        let tool = try LibsecretFileFixture.secretTool(["lookup", "service", "big", "key", "ours"], url: url, password: password)
        #expect(tool.status == 0, "\(tool.stderr)")
        #expect(tool.text == big, "secret-tool read \(tool.text.count) characters, not \(big.count)")
        // secret-tool parses the large file, adds an item and writes it back; we read both.
        let stored = try LibsecretFileFixture.secretTool(
            ["store", "--label=theirs", "app", "big"], url: url, password: password, stdin: "theirs")
        #expect(stored.status == 0, "\(stored.stderr)")
        try keyring.setSecret(Data("small".utf8), forKey: "second")
        #expect(try LibsecretFileFixture.secretTool(["lookup", "app", "big"], url: url, password: password).text == "theirs")
        let read = try Keyring(service: "big", store: open(url)).secret(forKey: "ours")
        #expect(read == Data(big.utf8), "we read \(read?.count ?? 0) bytes, not \(big.utf8.count)")
    }

    @Test("A write that fails leaves the file and the store as they were, and the next write keeps everything")
    func failedWrite() throws {
        let url = try LibsecretFileFixture.newFileURL()
        let keyring = try Keyring(service: "s", store: open(url))
        try keyring.setSecret(Data("kept".utf8), forKey: "old")
        let before = try Data(contentsOf: url)
        // A folder where the temporary file goes: the write cannot make it.
        let blocker = URL(fileURLWithPath: url.path + ".tmp")
        try FileManager.default.createDirectory(at: blocker.appendingPathComponent("inside"), withIntermediateDirectories: true)
        #expect(throws: KeyringError.self) { try keyring.setSecret(Data("lost".utf8), forKey: "new") }
        #expect(try Data(contentsOf: url) == before)
        #expect(try keyring.secretKeys() == ["old"])
        try FileManager.default.removeItem(at: blocker)
        try keyring.setSecret(Data("arrived".utf8), forKey: "new")
        let reopened = try Keyring(service: "s", store: open(url))
        #expect(try reopened.secret(forKey: "old") == Data("kept".utf8))
        #expect(try reopened.secret(forKey: "new") == Data("arrived".utf8))
    }
}
