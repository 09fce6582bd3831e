import Foundation
import KeyringSession
import KeyringTestSupport

/// A session of `TestProperty` on a fresh keyring of one store, with its state
/// file in a temporary folder; `tearDown()` removes both.
struct SessionFixture {
    let keyring: Keyring
    let folder: TemporaryFolder
    let session: Session<TestProperty>

    init(_ store: TestStore, required: [TestProperty] = TestProperty.required) throws {
        keyring = try store.makeKeyring()
        folder = try TemporaryFolder()
        session = try Session(keyring: keyring, requiredProperties: required, stateDirectory: folder.url)
    }

    /// Another session on the same service and state folder, as a second window or process would open.
    func secondSession(required: [TestProperty] = TestProperty.required) throws -> Session<TestProperty> {
        try Session(keyring: keyring, requiredProperties: required, stateDirectory: folder.url)
    }

    var stateFileBytes: Data? {
        try? Data(contentsOf: session.stateFileURL)
    }

    func tearDown() {
        _ = try? keyring.removeAll()
        folder.remove()
    }
}
