/// One store call as the Secret Service client carries it down: what the caller asked
/// (errors and prompts name it), the bound of its D-Bus calls, and the bound of a prompt
/// it may show.
///
/// A prompt waits for a person, not for the call bound, so every call after one gets a
/// fresh bound of the same length (`renewDeadline`, done in one place: `SecretPrompt.outcome`).
/// The bound lives in a box that every copy shares, so a renewal made deep in a step holds
/// for the steps after it, as the caller sees them.
struct SecretOperation {
    /// What the caller asked, such as "read default/work".
    let asked: String
    /// How long a prompt may wait for the person, and whether one can be shown.
    let prompt: PromptBound
    /// The bound the operation was given: `ReopeningClient` retries only within it.
    let started: Deadline
    private let bound: Bound

    /// The current bound of the D-Bus calls; see `renewDeadline`.
    var deadline: Deadline { bound.deadline }

    init(_ asked: String, deadline: Deadline, prompt: PromptBound) {
        self.asked = asked
        self.prompt = prompt
        started = deadline
        bound = Bound(deadline)
    }

    /// Gives the calls after a prompt a fresh bound of the same length: a person's answer
    /// must not use up the bound of the calls that follow it.
    func renewDeadline() {
        bound.deadline = Deadline(bound.deadline.timeout)
    }

    /// Goes back to the bound the operation was given, for a second run of the same steps
    /// (`ReopeningClient`, after the daemon went away).
    func restart() {
        bound.deadline = started
    }

    /// The same question with a bound of its own, of the same length: each deletion of a
    /// long `removeAll`.
    func withFreshDeadline() -> SecretOperation {
        SecretOperation(asked, deadline: Deadline(started.timeout), prompt: prompt)
    }

    /// A step of this operation named by its own words in errors, sharing its bound.
    func step(_ words: String) -> SecretOperation {
        SecretOperation(asked: words, prompt: prompt, started: started, bound: bound)
    }

    private init(asked: String, prompt: PromptBound, started: Deadline, bound: Bound) {
        self.asked = asked
        self.prompt = prompt
        self.started = started
        self.bound = bound
    }

    /// The renewable bound every copy of one operation shares; used on one thread at a time.
    private final class Bound {
        var deadline: Deadline
        init(_ deadline: Deadline) { self.deadline = deadline }
    }
}

/// What a store knows about its prompts: how long one may wait for the person, and
/// whether the caller has a display a prompt can be shown on.
struct PromptBound: Sendable {
    var timeout: Duration
    var display: Bool
}

extension PendingReply {
    /// Waits for the reply within `operation`'s bound and returns its typed result.
    func value(in operation: SecretOperation) throws -> Result {
        try value(asked: operation.asked, deadline: operation.deadline)
    }

    /// As `value(in:)`, `nil` when the daemon says the object is gone.
    func valueUnlessVanished(in operation: SecretOperation) throws -> Result? {
        try valueUnlessVanished(of: reply(asked: operation.asked, deadline: operation.deadline))
    }

    /// Waits for the reply within `operation`'s bound.
    func reply(in operation: SecretOperation) throws -> BusMessage {
        try reply(asked: operation.asked, deadline: operation.deadline)
    }
}

extension ReopeningClient {
    /// Runs `body` for `operation` on the current client, and once more on a new one when the
    /// daemon went away (see `run(_:deadline:_:)`), within the bound the operation was
    /// given; each run starts from that bound, as if the first had not been.
    func run<Result>(
        _ operation: SecretOperation, _ body: (SecretServiceClient) throws -> Result
    ) throws -> Result {
        try run(operation.asked, deadline: operation.started) { client in
            operation.restart()
            return try body(client)
        }
    }
}
