/// Which Secret Service collection a store reads and writes, as the caller asked.
///
/// The default (no name) keeps the behaviour every daemon expects of a client:
/// searches go over all collections, as libsecret's do, and new items go to the
/// collection the `default` alias names. A named collection is a boundary
/// instead: nothing outside it is read, listed or removed.
struct CollectionChoice: Sendable, Hashable {
    /// The collection's alias or label (or its object path); `nil` for the default collection.
    var name: String?
    /// Whether, with no default collection and none the daemon creates, writes may go to
    /// the in-memory `session` collection (gone at logout): only when the caller asks.
    var sessionFallback: Bool

    static let `default` = CollectionChoice(name: nil, sessionFallback: false)
}

/// The collection a client resolved, and why it is that one, for `doctor`.
struct ResolvedCollection: Sendable, Hashable {
    /// The collection's own object path, such as `/org/freedesktop/secrets/collection/login`.
    var path: String
    /// Why this collection: "the default alias", "created as the default collection", …
    var reason: String
}
