import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// `chosenPassword`, git's `get` without a username: the record a caller picks by its key
/// among the service's, read with one listing and one read where the store can, answers
/// as `list()` and then `password(forKey:)` of each key picked, in turn, would.
@Suite("A record chosen by its key among the service's")
struct ChosenPasswordTests {
    @Test("The first key chosen that holds credentials answers, exactly that key's", arguments: TestStore.underTest)
    func firstChosenAnswers(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        #expect(try keyring.chosenPassword { $0 } == nil, "nothing is stored yet")

        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        for (key, password) in [("b", "pw-b"), ("a", "pw-a"), (composed, "pw-composed"), (decomposed, "pw-decomposed")] {
            try keyring.set(try Samples.credentials("user-\(password)", password: password), forKey: key)
        }
        // A generic secret is another kind: never offered, even under a key of its own.
        try keyring.setSecret(Data("not-a-password".utf8), forKey: "a-secret")

        var offered: [[UInt8]] = []
        let first = try keyring.chosenPassword { keys in
            offered = keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
            return keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        }
        #expect(first?.key == "a" && first?.password == "pw-a")
        let listed = try keyring.list().map { Array($0.key.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        #expect(offered == listed, "the keys offered are the ones list() shows")

        // Canonically equivalent keys are two records: the one chosen, byte for byte, answers.
        let chosenDecomposed = try keyring.chosenPassword { keys in keys.filter { Array($0.utf8) == Array(decomposed.utf8) } }
        #expect(chosenDecomposed?.password == "pw-decomposed")
        // A key chosen that holds nothing (not offered, or removed meanwhile) is passed over.
        #expect(try keyring.chosenPassword { _ in ["missing", "b", "a"] }?.password == "pw-b")
        #expect(try keyring.chosenPassword { _ in ["missing"] } == nil)
        #expect(try keyring.chosenPassword { _ in [] } == nil)
    }
}
