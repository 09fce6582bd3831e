#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Items other programs stored in the Secret Service under a schema of their own, read
/// for an import (`swift-keyring import git-libsecret`): never a record of ours.
///
/// A one-shot read on the Secret Service client the stores use: an import runs once, so
/// it needs none of the store's round-trip savings, only its bound on time.
package enum ForeignSecretServiceItems {
    /// One item: its attributes and its secret's bytes, `nil` while the item is locked.
    package struct Item: Sendable, CustomStringConvertible {
        package var attributes: [String: String]
        package var secret: [UInt8]?

        /// The attributes only: the secret is never shown.
        package var description: String { "Item(\(attributes), secret: <\(secret?.count ?? 0) bytes hidden>)" }
    }

    /// Every unlocked item, in any collection, whose attributes include all of `attributes`
    /// (`xdg:schema` among them for a schema's name), with its secret.
    /// - Throws: ``KeyringError/serviceUnavailable(reason:)`` without a Secret Service,
    ///   ``KeyringError/timedOut(operation:seconds:)`` past `timeout`, or the daemon's error.
    package static func search(_ attributes: [String: String], timeout: Duration) throws -> [Item] {
        let deadline = Deadline(timeout)
        // Nothing here unlocks, so no prompt is ever shown.
        let operation = SecretOperation(
            "search for other programs' items", deadline: deadline, prompt: PromptBound(timeout: timeout, display: false))
        let client = try SecretServiceClient(
            address: SessionBusAddress.resolve(ProcessInfo.processInfo.environment), deadline: deadline)
        // The attributes are matched as given, none added or checked.
        let found = try client.searchPaths(SecretAttributes(values: attributes), in: operation)
        let everyAttributes = try client.attributes(at: found.unlocked + found.locked, in: operation)
        // A locked item's secret is not read (no prompt is shown): the caller says it was not copied.
        let secrets = try client.secrets(at: found.unlocked, in: operation)
        return (found.unlocked + found.locked).compactMap { path in
            everyAttributes[path].map { Item(attributes: $0, secret: secrets[path]) }
        }
    }
}
