import Foundation
import SwiftKeyring
import Testing

/// Two gnome-keyring daemons, each on its own bus, keeping one user's keyring files: a
/// desktop login and a second session of the same user (an SSH login that started its
/// own bus and daemon). A daemon reloads the files the other one wrote when it is next
/// searched, and announces nothing on its bus (it signals only the changes made through
/// its own D-Bus methods), so a store that remembers item paths must learn of such a
/// change another way, or it reads the old item for ever.
@Suite("Secret Service: two daemons sharing one keyring folder")
struct SecretServiceSharedKeyringTests {
    @Test("A change made through the other daemon is seen by the next lookup of a remembered record")
    func changeThroughTheOtherDaemon() throws {
        let first = try SecretServiceSandbox(.busAndDaemon)
        defer { first.stop() }
        let reader = try SecretServiceStore(timeout: .seconds(10), environment: first.environment)
        let readerKeyring = try Keyring(service: "test.shared", store: reader)
        let before = try Samples.credentials("before", password: "password-before")
        try readerKeyring.set(before, forKey: "work")
        // The second daemon starts once the keyring file is written, as a second login
        // finds it (two daemons that both create it would each keep their own).
        let second = try SecretServiceSandbox(.busAndDaemon, sharingKeyringsWith: first)
        defer { second.stop() }
        let writerKeyring = try Keyring(
            service: "test.shared", store: SecretServiceStore(timeout: .seconds(10), environment: second.environment))
        #expect(try writerKeyring.credentials(forKey: "work") == before)

        // The first search only counts and the second remembers: a few reads make the
        // next one come from memory, or this test proves nothing about the memory.
        var fromMemory = false
        for _ in 0..<5 where !fromMemory {
            let count = reader.lookupsFromMemory
            #expect(try readerKeyring.credentials(forKey: "work") == before)
            fromMemory = reader.lookupsFromMemory > count
        }
        #expect(fromMemory, "no lookup was answered from memory")

        // gnome-keyring tells a changed file by its modification time in whole seconds
        // (egg-file-tracker.c): a write in the same second as the one before it goes
        // unseen by the other daemon, whatever its clients do. The write comes a second later.
        // A new password for the same account is changed in place (SetSecret), so the
        // reader's daemon still exports the item it reloads.
        Thread.sleep(forTimeInterval: 1.1)
        let newPassword = try Samples.credentials("before", password: "password-after")
        try writerKeyring.set(newPassword, forKey: "work")

        #expect(try readerKeyring.credentials(forKey: "work") == newPassword)
        #expect(try readerKeyring.password(forKey: "work") == newPassword.password)
        #expect(try readerKeyring.list().map(\.username) == ["before"])

        // Another username is a new item (attributes are never rewritten in place, see
        // ItemReplacement). gnome-keyring 42 reloads an item another daemon created but
        // exports no D-Bus object for it until it restarts, so there its attributes cannot be
        // read, and a read that cannot check them finds no record: never the old one.
        Thread.sleep(forTimeInterval: 1.1)
        let after = try Samples.credentials(
            "after", password: "password-after-2", url: URL(string: "https://example.org/after")!, sync: true)
        try writerKeyring.set(after, forKey: "work")
        let password = try readerKeyring.password(forKey: "work")
        #expect(password == nil || password == after.password, "the reader read an older password")
        let read = try readerKeyring.credentials(forKey: "work")
        #expect(read == nil || read == after, "the reader read \(String(describing: read?.username)), not the new record")
        #expect(try readerKeyring.list().allSatisfy { $0.username == "after" })
    }
}
