// Placeholder until the libsecret store lands: every call says so.
public final class SecretServiceStore: CredentialStore {
    public init(timeout: Duration = .seconds(5), environment: [String: String] = [:]) throws {
        throw KeyringError.serviceUnavailable(reason: "the Secret Service store is not built yet")
    }
    public var name: String { "secret-service" }
    public func record(for id: RecordID) throws -> StoredRecord? { nil }
    public func save(_ record: StoredRecord) throws {}
    public func removeRecord(for id: RecordID) throws -> Bool { false }
    public func summaries(service: String, kind: RecordKind?) throws -> [RecordSummary] { [] }
    public func removeAll(service: String, kind: RecordKind?) throws -> Int { 0 }
}
