import Foundation
import KeyringTestSupport
import Testing

@testable import SwiftKeyring

/// What a refusal of libsecret's file counts: the items that do not authenticate, out of the file's items.
@Suite("libsecret's file: counting the items that do not authenticate")
struct LibsecretFileItemCountTests {
    @Test("An item spliced in under another password is named, and the file's item count given")
    func splicedItem() throws {
        let url = try LibsecretFileFixture.newFileURL()
        let keyring = try Keyring(service: "s", store: try LibsecretFileFixture.cheapStore(url: url, password: "first"))
        for key in ["a", "b", "c"] { try keyring.set(try Samples.credentials(), forKey: key) }
        let other = try LibsecretFileFixture.newFileURL()
        let foreign = try Keyring(service: "s", store: try LibsecretFileFixture.cheapStore(url: other, password: "second"))
        try foreign.set(try Samples.credentials(), forKey: "x")

        var file = try LibsecretKeyringFile.decode(Array(try Data(contentsOf: url)))
        let spliced = try LibsecretKeyringFile.decode(Array(try Data(contentsOf: other))).items[0]
        file.items[1] = spliced
        try FileStoreFixture.writePrivate(Data(file.encoded()), to: url)
        let error = try #require(throws: KeyringError.self) {
            try Keyring(service: "s", store: try LibsecretFileFixture.cheapStore(url: url, password: "first")).list()
        }
        #expect(error.code == .damaged)
        #expect(
            error.reason?.hasSuffix(
                "item 1 (of 3 items in the file) does not authenticate under the key that opens the others") == true,
            "\(error.reason ?? "")")

        file.items[2] = spliced
        try FileStoreFixture.writePrivate(Data(file.encoded()), to: url)
        let two = try #require(throws: KeyringError.self) {
            try Keyring(service: "s", store: try LibsecretFileFixture.cheapStore(url: url, password: "first")).list()
        }
        #expect(
            two.reason?.hasSuffix("items 1, 2 (of 3 items in the file) do not authenticate under the key that opens the others")
                == true)
    }
}
