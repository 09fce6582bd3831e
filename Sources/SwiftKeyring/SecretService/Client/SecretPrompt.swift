/// Shows a prompt the daemon returned (to unlock, or to confirm creating or
/// deleting an item, as KeePassXC asks) and waits for the person.
///
/// The wait has the prompt's own bound, not the D-Bus call bound, and is
/// driven on the store's connection rather than by libsecret, whose prompt
/// wait cannot be cut short cleanly. It also ends when the daemon leaves the
/// bus, so a daemon that dies with a prompt open is reported at once. A prompt
/// we stop waiting for (its bound passed, or the task was cancelled) is
/// dismissed, so it does not stay on the person's screen, except on
/// gnome-keyring, which cannot take that (see `dismiss`).
enum SecretPrompt {
    /// Shows the prompt at `prompt` and waits for its `Completed` signal, at most
    /// `promptTimeout`; returns the paths it gave (those unlocked, or the item
    /// created), or `nil` when it was dismissed.
    /// - Parameters:
    ///   - operation: what the prompt is for, such as "read default/work", for errors.
    ///   - unlocking: whether it is an unlock prompt (else a confirmation, as KeePassXC asks before a write).
    /// - Throws: `.promptTimedOut` for an unlock prompt nobody answered in time (`.timedOut`
    ///   for another prompt), `CancellationError` for a cancelled task, `.serviceUnavailable`
    ///   when the daemon leaves the bus meanwhile, or the `Prompt` call's own error.
    ///   - daemon: the unique name of the daemon that made the prompt: only its `Completed` counts.
    static func complete(
        _ prompt: String,
        on bus: BusConnection,
        daemon: String,
        _ operation: String,
        unlocking: Bool,
        callTimeout: Duration,
        promptTimeout: Duration
    ) throws -> [String]? {
        let what = unlocking ? "the unlock prompt" : "the prompt"
        // Watched before the prompt is shown, so a quick answer cannot be missed.
        let watch = try PromptWatch(prompt, on: bus, daemon: daemon, deadline: Deadline(callTimeout))
        // Started before `Prompt.Prompt` is sent: once the prompt is on screen, any way
        // out of this function must dismiss it, so the prompt bound counts from here.
        let promptDeadline = Deadline(promptTimeout)
        do {
            // An empty window id: the library has no window to attach the prompt to.
            try bus.call(
                "show \(what) to \(operation)", destination: daemon, path: prompt, interface: SecretServiceNames.prompt,
                method: "Prompt", signature: "s", reply: "", deadline: Deadline(callTimeout), decode: BasicReplies.none
            ) { $0.string("") }
            do {
                try watch.wait("wait for \(what) to \(operation)", deadline: promptDeadline)
            } catch let timedOut as KeyringError where timedOut.code == .timedOut && unlocking {
                // The daemon answered; the person did not. A code of its own, so callers can tell the two apart.
                throw KeyringError.promptTimedOut(operation: operation, seconds: timedOut.seconds ?? 0)
            }
        } catch {
            dismiss(prompt, on: bus, daemon: daemon, callTimeout: callTimeout)
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
    private static func dismiss(_ prompt: String, on bus: BusConnection, daemon: String, callTimeout: Duration) {
        // The prompt must still be dismissed when the task that opened it was cancelled.
        OperationCancellation.withoutCancellation {
            let owner = try? bus.secretServiceOwner(deadline: Deadline(callTimeout))
            guard owner?.isGnomeKeyring != true else { return }
            _ = try? bus.call(
                "dismiss the prompt", destination: daemon, path: prompt, interface: SecretServiceNames.prompt,
                method: "Dismiss", reply: "", deadline: Deadline(callTimeout), decode: BasicReplies.none)
        }
    }
}
