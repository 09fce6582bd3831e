import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// Keys compare by their exact Unicode scalars on every store: `é` as one scalar
/// (U+00E9) and as `e` with a combining acute accent (U+0065 U+0301) are canonically
/// equivalent, and Swift's `String ==` calls them equal, but they are two keys. The
/// Secret Service compares bytes, so a store that folded them would make one record
/// of two there and two elsewhere, and `migrate` would lose one.
@Suite("Keys are exact on every store")
struct ExactKeysTests {
    @Test("Canonically equivalent keys are two records", arguments: TestStore.underTest)
    func equivalentKeysAreTwoRecords(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed, "Swift's String == folds them: the premise of this test")
        try keyring.set(try Samples.credentials("one", password: "password-one"), forKey: composed)
        try keyring.set(try Samples.credentials("two", password: "password-two"), forKey: decomposed)

        #expect(try keyring.password(forKey: composed) == "password-one")
        #expect(try keyring.password(forKey: decomposed) == "password-two")
        let keys = try keyring.list().map { Array($0.key.unicodeScalars) }
        #expect(keys.count == 2)
        #expect(
            Set(keys.map { $0.map(\.value) }) == [
                Array(composed.unicodeScalars).map(\.value), Array(decomposed.unicodeScalars).map(\.value),
            ])
        #expect(try keyring.remove(forKey: decomposed))
        #expect(try keyring.password(forKey: composed) == "password-one")
        #expect(try keyring.password(forKey: decomposed) == nil)
    }
}
