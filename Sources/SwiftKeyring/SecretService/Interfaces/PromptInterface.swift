/// `org.freedesktop.Secret.Prompt`, a prompt the daemon returned: its two methods and its
/// `Completed` signal. Completing one (show, wait, dismiss when given up) is `SecretPrompt`'s.
struct PromptInterface {
    let object: BusObject

    /// `Prompt(s window-id)`, with an empty window id: the library has no window to attach it to.
    func prompt(asked: String, deadline: Deadline) throws {
        try object.send(
            SecretServiceNames.prompt, "Prompt", signature: "s", reply: "", deadline: deadline,
            decode: BasicReplies.none
        ) { $0.string("") }.value(asked: asked, deadline: deadline)
    }

    /// `Dismiss()`.
    func dismiss(deadline: Deadline) throws {
        try object.send(
            SecretServiceNames.prompt, "Dismiss", reply: "", deadline: deadline, decode: BasicReplies.none
        ).value(asked: "dismiss the prompt", deadline: deadline)
    }

    /// The match rule of this prompt's `Completed` signal, from the daemon alone.
    var completedRule: String {
        "type='signal',sender='\(object.destination)',interface='\(SecretServiceNames.prompt)',member='Completed',"
            + "path='\(object.path)'"
    }

    /// The `Completed` signals a handler reads: the daemon's, of signature `bv`.
    var completedInterest: SignalInterest {
        SignalInterest(
            sender: object.destination, member: "Completed", signature: "bv",
            decode: { try Completion.read(&$0) })
    }

    /// This prompt's `Completed`, when `message` is it.
    func completion(in message: BusMessage) -> Completion? {
        guard message.sender == object.destination, message.path == object.path,
            message.interface == SecretServiceNames.prompt, message.member == "Completed"
        else { return nil }
        return message.decoded as? Completion
    }

    /// `Completed(b dismissed, v result)`, read straight from its body: whether the person
    /// dismissed it, and the paths its result names (an `o` or an `ao`; none for another
    /// type, which is read and checked all the same).
    struct Completion: Sendable {
        let dismissed: Bool
        let paths: [String]

        static func read(_ cursor: inout WireCursor) throws -> Completion {
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
            return Completion(dismissed: dismissed, paths: paths)
        }
    }
}
