/// A prompt's `Completed` signal (`bv`), read straight from its body: whether the person
/// dismissed it, and the paths its result names (an `o` or an `ao`; none for another type,
/// which is read and checked all the same).
struct PromptCompletion: Sendable {
    let dismissed: Bool
    let paths: [String]

    static func read(_ cursor: inout WireCursor) throws -> PromptCompletion {
        let dismissed = try cursor.boolean()
        let paths = try cursor.variant { value, type -> [String] in
            switch type {
            case "o": return [try value.objectPath()]
            case "ao": return try SecretReplies.paths(&value)
            default:
                try value.skip(type)
                return []
            }
        }
        return PromptCompletion(dismissed: dismissed, paths: paths)
    }
}
