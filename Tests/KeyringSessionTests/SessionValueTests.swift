import Foundation
import KeyringSession
import KeyringTestSupport
import Testing

@Suite("Session values")
struct SessionValueTests {
    /// One secure and one plain property, so every value goes through both the keyring and the state file.
    static let places: [TestProperty] = [.token, .draft]

    @Test("Every value type round-trips", arguments: TestStore.allCases, places)
    func typedRoundTrip(store: TestStore, property: TestProperty) throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        let session = fixture.session
        let reader = try fixture.secondSession()

        try session.set("päßwörd 🔑 \u{0} end", for: property)
        #expect(try reader.string(for: property) == "päßwörd 🔑 \u{0} end")

        let bytes = Data([0x00, 0xFF, 0xFE, 0xC3, 0x28, 0x00] + (0...255).map(UInt8.init))
        try session.set(bytes, for: property)
        #expect(try reader.data(for: property) == bytes)

        for flag in [true, false] {
            try session.set(flag, for: property)
            #expect(try reader.bool(for: property) == flag)
        }
        for number in [0, -1, Int.max, Int.min] {
            try session.set(number, for: property)
            #expect(try reader.int(for: property) == number)
        }
        let date = Date(timeIntervalSinceReferenceDate: 765_432_123.456_789)
        try session.set(date, for: property)
        #expect(try reader.date(for: property) == date)

        let preferences = Preferences(theme: "dark", fontSize: 14, tags: ["a", "ü", ""])
        try session.set(preferences, for: property)
        #expect(try reader.value(Preferences.self, for: property) == preferences)
    }

    @Test("Saving nil removes the value", arguments: TestStore.allCases, places)
    func savingNilRemoves(store: TestStore, property: TestProperty) throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        try fixture.session.set(42, for: property)
        try fixture.session.set(Int?.none, for: property)
        #expect(try fixture.session.int(for: property) == nil)
        try fixture.session.set("x", for: property)
        try fixture.session.remove(property)
        #expect(try fixture.session.string(for: property) == nil)
    }

    @Test("Reading a value as another type names the property", arguments: TestStore.allCases, places)
    func wrongType(store: TestStore, property: TestProperty) throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        try fixture.session.set("not a number", for: property)
        #expect(throws: KeyringError.invalidRecord(field: property.rawValue, reason: "holds a value that cannot be read as Int"))
        {
            try fixture.session.int(for: property)
        }
    }

    @Test("A failed save throws and keeps the old value", arguments: TestStore.allCases, places)
    func failedSaveKeepsOldValue(store: TestStore, property: TestProperty) throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        try fixture.session.set("old", for: property)
        let fileBefore = fixture.stateFileBytes
        #expect(throws: KeyringError.invalidRecord(field: property.rawValue, reason: "cannot be encoded as JSON")) {
            try fixture.session.set(Unencodable(), for: property)
        }
        #expect(throws: KeyringError.invalidRecord(field: property.rawValue, reason: "cannot be encoded as JSON")) {
            try fixture.session.set(Double.nan, for: property)
        }
        #expect(try fixture.session.string(for: property) == "old")
        #expect(fixture.stateFileBytes == fileBefore)
    }

    @Test("A secure value too large for the keyring is refused and the old value kept", arguments: TestStore.allCases)
    func oversizedSecureValue(store: TestStore) throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        try fixture.session.set("old", for: .token)
        #expect(throws: KeyringError.invalidRecord(field: "secret", reason: "is longer than 16 MiB")) {
            try fixture.session.set(Data(count: (16 << 20) + 1), for: .token)
        }
        #expect(try fixture.session.string(for: .token) == "old")
    }
}
