/// Completes a prompt the daemon returned (to unlock, to create a collection, or to confirm
/// creating or deleting an item, as KeePassXC asks): shows it and waits for the person.
///
/// The wait has the prompt's own bound, not the D-Bus call bound, and is driven on the
/// client's connection: `Prompt.Prompt` is an ordinary bounded call, and only the wait for
/// `Completed` has the prompt's bound. It also ends when the daemon leaves the bus, so a
/// daemon that dies with a prompt open is reported at once. A prompt we stop waiting for
/// (its bound passed, or the task was cancelled) is dismissed, so it does not stay on the
/// person's screen, except on gnome-keyring, which cannot take that (see `dismiss`).
enum SecretPrompt {
    /// What became of the prompt a call returned.
    enum Outcome {
        /// The call returned `/`: it needed no prompt.
        case none
        /// The person dismissed it (or, with no display, it could not be shown).
        case dismissed
        /// It completed, giving these paths (those unlocked, or the object created).
        case completed([String])
    }

    /// The one place a returned prompt is completed: `/` is no prompt; any other is shown and
    /// waited for within `operation`'s prompt bound, and the operation's call bound is renewed
    /// after it (a person's answer must not use up the bound of the calls that follow).
    /// - Parameter unlocking: whether it asks for a password (an unlock prompt, or a new
    ///   collection's), whose unanswered end is `.promptTimedOut`; else a confirmation.
    /// - Throws: `.promptTimedOut` for an unlock prompt nobody answered in time (`.timedOut`
    ///   for another prompt), `CancellationError` for a cancelled task, `.serviceUnavailable`
    ///   when the daemon leaves the bus meanwhile, or the `Prompt` call's own error.
    static func outcome(
        of path: String, on bus: BusConnection, daemon: String, unlocking: Bool, in operation: SecretOperation
    ) throws -> Outcome {
        guard path != SecretServiceNames.none else { return .none }
        defer { operation.renewDeadline() }
        let prompt = PromptInterface(object: BusObject(bus: bus, destination: daemon, path: path))
        let paths = try complete(
            prompt, unlocking: unlocking, asked: operation.asked, callTimeout: operation.deadline.timeout,
            promptTimeout: operation.prompt.timeout)
        return paths.map(Outcome.completed) ?? .dismissed
    }

    /// Shows `prompt` and waits for its `Completed` signal, at most `promptTimeout`; returns
    /// the paths it gave, or `nil` when it was dismissed.
    private static func complete(
        _ prompt: PromptInterface, unlocking: Bool, asked: String, callTimeout: Duration, promptTimeout: Duration
    ) throws -> [String]? {
        let what = unlocking ? "the unlock prompt" : "the prompt"
        // Watched before the prompt is shown, so a quick answer cannot be missed.
        let watch = try PromptWatch(prompt, deadline: Deadline(callTimeout))
        // Started before `Prompt.Prompt` is sent: once the prompt is on screen, any way
        // out of this function must dismiss it, so the prompt bound counts from here.
        let promptDeadline = Deadline(promptTimeout)
        do {
            try prompt.prompt(asked: "show \(what) to \(asked)", deadline: Deadline(callTimeout))
            do {
                try watch.wait(asked: "wait for \(what) to \(asked)", deadline: promptDeadline)
            } catch let timedOut as KeyringError where timedOut.code == .timedOut && unlocking {
                // The daemon answered; the person did not. A code of its own, so callers can tell the two apart.
                throw KeyringError.promptTimedOut(operation: asked, seconds: timedOut.seconds ?? 0)
            }
        } catch {
            dismiss(prompt, callTimeout: callTimeout)
            throw error
        }
        return watch.dismissed ? nil : watch.paths
    }

    /// Takes the prompt off the screen; best effort, bounded by the call timeout.
    ///
    /// Not on gnome-keyring: up to at least 42.1, its `Prompt.Dismiss` on an unlock
    /// prompt that is open aborts the whole daemon (an assertion in
    /// `gkd-secret-unlock.c`: `mark_as_complete` restarts the prompt it just ended).
    /// There the prompt stays for the person to answer or dismiss; the daemon
    /// keeps answering other calls meanwhile.
    private static func dismiss(_ prompt: PromptInterface, callTimeout: Duration) {
        // The prompt must still be dismissed when the task that opened it was cancelled.
        OperationCancellation.withoutCancellation {
            let owner = try? prompt.object.bus.secretServiceOwner(deadline: Deadline(callTimeout))
            guard owner?.isGnomeKeyring != true else { return }
            try? prompt.dismiss(deadline: Deadline(callTimeout))
        }
    }
}
