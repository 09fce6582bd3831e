internal import CLibSecretShims

/// Unlocks Secret Service objects, showing the daemon's unlock prompt when it
/// asks for one and waiting for the person, not for the D-Bus call bound.
///
/// libsecret's own prompt handling (`secret_service_unlock_dbus_paths_sync`)
/// cannot be cut short cleanly: cancelling it while the prompt is open trips a
/// GLib critical and may never return. So the prompt is driven here, on the
/// store's connection: `Service.Unlock` and `Prompt.Prompt` are ordinary bounded
/// calls, and only the wait for `Completed` has the prompt's own, long bound.
/// A prompt we stop waiting for (its bound passed, or the task was cancelled)
/// is dismissed, so it does not stay on the person's screen, except on
/// gnome-keyring, which cannot take that (see `dismiss`).
enum UnlockPrompt {
    private static let serviceInterface = "org.freedesktop.Secret.Service"
    private static let promptInterface = "org.freedesktop.Secret.Prompt"

    /// Unlocks `paths`; returns the paths unlocked, which may be fewer when the daemon refused some.
    /// - Parameters:
    ///   - deadline: the call bound, for each D-Bus call; a call after the prompt gets a fresh one of the same length.
    ///   - promptTimeout: how long a person may take to answer the prompt.
    ///   - display: whether the caller has a display, so a prompt can have been shown
    ///     (see `SecretServiceStore.canShowPrompt`).
    /// - Throws: `KeyringError.promptDismissed`, `.locked` for a prompt that ended at once
    ///   with no display to show it on, `.promptTimedOut` when nobody answered it in time,
    ///   `CancellationError` for a cancelled task, or the calls' own errors.
    static func unlock(
        _ paths: [String],
        on bus: BusConnection,
        _ operation: String,
        deadline: Deadline,
        promptTimeout: Duration,
        display: Bool
    ) throws -> [String] {
        let reply = try bus.call(
            operation,
            destination: BusConnection.secretServiceName,
            path: SWIFT_KEYRING_SERVICE_PATH,
            interface: serviceInterface,
            method: "Unlock",
            arguments: CStringArray.with(paths) { swift_keyring_object_paths_argument($0) },
            deadline: deadline
        )
        defer { g_variant_unref(reply) }
        var promptPath: UnsafeMutablePointer<gchar>?
        let unlocked = CStringArray.take(swift_keyring_unlock_reply(reply, &promptPath))
        let prompt = promptPath.map { path in
            defer { g_free(path) }
            return String(cString: path)
        } ?? "/"
        guard prompt != "/" else { return unlocked }
        let answered = try answer(prompt, on: bus, operation, callTimeout: deadline.timeout, promptTimeout: promptTimeout)
        guard let answered else {
            // gnome-keyring with no display ends its prompt at once as dismissed: nobody
            // dismissed anything, the keyring simply stays locked, and says so.
            throw display ? KeyringError.promptDismissed : KeyringError.locked
        }
        return unlocked + answered
    }

    /// Shows the prompt at `prompt` and waits for its `Completed` signal; `nil` when it was dismissed.
    private static func answer(
        _ prompt: String,
        on bus: BusConnection,
        _ operation: String,
        callTimeout: Duration,
        promptTimeout: Duration
    ) throws -> [String]? {
        // Subscribed before the prompt is shown, so a quick answer cannot be missed.
        let watch = swift_keyring_prompt_watch_new(bus.pointer, prompt)!
        defer { swift_keyring_prompt_watch_free(watch) }
        // Started before `Prompt.Prompt` is sent: once the prompt is on screen, any way
        // out of this function must dismiss it, so the prompt bound counts from here.
        let promptDeadline = Deadline(promptTimeout)
        do {
            let reply = try bus.call(
                "show the unlock prompt to \(operation)",
                destination: BusConnection.secretServiceName,
                path: prompt,
                interface: promptInterface,
                method: "Prompt",
                // An empty window id: the library has no window to attach the prompt to.
                arguments: swift_keyring_string_argument(""),
                deadline: Deadline(callTimeout)
            )
            g_variant_unref(reply)
            do {
                _ = try GLibCall.run("wait for the unlock prompt to \(operation)", deadline: promptDeadline) { cancellable, error in
                    swift_keyring_prompt_watch_wait(watch, cancellable, error)
                }
            } catch KeyringError.timedOut(_, let seconds) {
                // The daemon answered; the person did not. A case of its own, so callers can tell the two apart.
                throw KeyringError.promptTimedOut(operation: operation, seconds: seconds)
            }
        } catch {
            dismiss(prompt, on: bus, callTimeout: callTimeout)
            throw error
        }
        if swift_keyring_prompt_watch_dismissed(watch) != 0 {
            return nil
        }
        return CStringArray.take(swift_keyring_prompt_watch_unlocked(watch))
    }

    /// Takes the prompt off the screen; best effort, bounded by the call timeout.
    ///
    /// Not on gnome-keyring: up to at least 42.1, its `Prompt.Dismiss` on an unlock
    /// prompt that is open aborts the whole daemon (an assertion in
    /// `gkd-secret-unlock.c`: `mark_as_complete` restarts the prompt it just ended).
    /// There the prompt stays for the person to answer or dismiss; the daemon
    /// keeps answering other calls meanwhile.
    private static func dismiss(_ prompt: String, on bus: BusConnection, callTimeout: Duration) {
        // A cancellation of our own, never cancelled, hides a cancelled task's: the
        // prompt must still be dismissed when the task that opened it was cancelled.
        OperationCancellation().bind {
            let owner = try? bus.secretServiceOwner(deadline: Deadline(callTimeout))
            guard owner?.isGnomeKeyring != true else { return }
            let reply = try? bus.call(
                "dismiss the unlock prompt",
                destination: BusConnection.secretServiceName,
                path: prompt,
                interface: promptInterface,
                method: "Dismiss",
                arguments: nil,
                deadline: Deadline(callTimeout)
            )
            reply.map { g_variant_unref($0) }
        }
    }
}
