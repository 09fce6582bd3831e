/// What a store knows about its unlock prompts: how long one may wait for the
/// person, and whether the caller has a display a prompt can be shown on.
struct PromptBound: Sendable {
    var timeout: Duration
    var display: Bool
}
