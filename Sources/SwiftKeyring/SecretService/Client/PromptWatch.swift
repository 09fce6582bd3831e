/// A watch of one prompt's `Completed` signal, made before `Prompt.Prompt` is sent, on
/// the same connection, so the bus has the match rule before the prompt can end.
///
/// Only the daemon's own `Completed` counts (the sender the bus names is the daemon's
/// unique name): any program on the bus can emit a Completed on a prompt's path, and one
/// did end a pending unlock prompt in 0.1 s, the record then reported absent. It also
/// sees the daemon leave the bus: a daemon that dies with the prompt open (KeePassXC has
/// been seen to) would otherwise leave the wait to the prompt's long bound.
final class PromptWatch {
    /// What the signals said, written by the connection's handler with its lock held,
    /// and read in `wait`'s condition, under the same lock.
    private final class State: @unchecked Sendable {
        var completed = false
        var dismissed = false
        var vanished = false
        /// The prompt's result: "ao" for an unlock prompt, "o" for a CreateItem prompt.
        var paths: [String] = []
    }

    private let bus: BusConnection
    private let state = State()
    private let handler: Int
    private let rules: [String]

    /// Watches `Completed` on `prompt`, sent by the daemon that made it. The match rules are
    /// sent without waiting for their replies: the bus handles a connection's messages in
    /// order, so they are in place before the `Prompt` call that follows them reaches the daemon.
    init(_ prompt: PromptInterface, deadline: Deadline) throws {
        bus = prompt.object.bus
        let state = state
        handler = bus.addHandler(for: [prompt.completedInterest, SignalInterest.nameOwnerChanged]) { message in
            if !state.completed, let completion = prompt.completion(in: message) {
                state.completed = true
                state.dismissed = completion.dismissed
                state.paths = completion.paths
            } else if NameOwnerChange.isDeparture(of: SecretServiceNames.busName, in: message) {
                state.vanished = true
            }
        }
        rules = [prompt.completedRule, BusConnection.nameOwnerChangedRule(SecretServiceNames.busName)]
        do {
            for rule in rules { try bus.sendMatchRule("AddMatch", rule, deadline: deadline) }
        } catch {
            bus.removeHandler(handler)
            throw error
        }
    }

    deinit {
        bus.removeHandler(handler)
        for rule in rules { try? bus.sendMatchRule("RemoveMatch", rule, deadline: Deadline(.seconds(1))) }
    }

    /// Waits for `Completed` until `deadline` (the prompt's bound) or a cancelled task.
    /// - Throws: `.serviceUnavailable(.noDaemon)` when the daemon left the bus first,
    ///   `.timedOut(operation:…)` naming `asked`, or `CancellationError`.
    func wait(asked: String, deadline: Deadline) throws {
        let state = state
        try bus.wait(asked, deadline: deadline) { state.completed || state.vanished }
        if !state.completed {
            throw KeyringError.serviceUnavailable(
                reason: .noDaemon(detail: "the Secret Service daemon left the bus while its prompt was open"))
        }
    }

    /// Whether the completed prompt was dismissed.
    var dismissed: Bool { state.dismissed }

    /// The paths the completed prompt gave (those it unlocked, or the item it created).
    var paths: [String] { state.paths }
}
