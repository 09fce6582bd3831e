/// Unlocks Secret Service objects, showing the daemon's unlock prompt when it
/// asks for one and waiting for the person, not for the D-Bus call bound.
///
/// libsecret's own prompt handling (`secret_service_unlock_dbus_paths_sync`)
/// cannot be cut short cleanly: cancelling it while the prompt is open trips a
/// GLib critical and may never return. So the prompt is driven here, on the
/// store's connection: `Service.Unlock` and `Prompt.Prompt` are ordinary bounded
/// calls, and only the wait for `Completed` has the prompt's own, long bound.
/// `SecretPrompt` shows the prompt and waits for it.
enum UnlockPrompt {
    /// Unlocks `paths`; returns those of them unlocked, which may be fewer when the daemon refused some.
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
        daemon: String,
        _ operation: String,
        deadline: Deadline,
        promptTimeout: Duration,
        display: Bool
    ) throws -> [String] {
        if let unlocked = try unlockOnce(
            paths, on: bus, daemon: daemon, operation, deadline: deadline, promptTimeout: promptTimeout, display: display,
            acceptingLostPrompt: true)
        {
            return unlocked
        }
        // The prompt ended before it was shown, unlocking nothing (see `unlockOnce`): the
        // objects are asked again, which another client's unlock has usually done.
        return try unlockOnce(
            paths, on: bus, daemon: daemon, operation, deadline: Deadline(deadline.timeout), promptTimeout: promptTimeout,
            display: display, acceptingLostPrompt: false) ?? []
    }

    /// One `Unlock` and its prompt; `nil` when `acceptingLostPrompt` and the prompt was
    /// lost: gone before it was shown, or completed at once, not dismissed, with nothing.
    ///
    /// KWallet (kwalletd5 5.103) hands the opening of any wallet to every prompt it has
    /// made, and a prompt not yet shown takes it as its own completion: of several clients
    /// unlocking at once (apps starting at login), one's prompt opens the wallet and the
    /// others' prompts end with nothing, or are gone ("No such object path
    /// '/org/freedesktop/secrets/prompt/p1'", 1 of 32 processes here), though the
    /// collection is now unlocked.
    private static func unlockOnce(
        _ paths: [String],
        on bus: BusConnection,
        daemon: String,
        _ operation: String,
        deadline: Deadline,
        promptTimeout: Duration,
        display: Bool,
        acceptingLostPrompt: Bool
    ) throws -> [String]? {
        let reply = try bus.call(
            operation, destination: daemon, path: SecretServiceNames.servicePath, interface: SecretServiceNames.service,
            method: "Unlock", signature: "ao", reply: "aoo", deadline: deadline,
            decode: SecretReplies.unlock
        ) { $0.strings(paths) }
        // The paths unlocked at once, and the prompt's path ("/" for none).
        let unlocked = reply[0]
        let prompt = reply[1][0]
        // Only what was asked counts as unlocked: a path the daemon names beside them is
        // no item of this operation's, and an asked one it leaves out is still locked.
        guard prompt != SecretServiceNames.none else { return unlocked.filter(paths.contains) }
        let answered: [String]?
        do {
            answered = try SecretPrompt.complete(
                prompt, on: bus, daemon: daemon, operation, unlocking: true, callTimeout: deadline.timeout,
                promptTimeout: promptTimeout
            )
        } catch let error as KeyringError
            where acceptingLostPrompt && error.backendDomain == "org.freedesktop.DBus.Error.UnknownObject"
        {
            return nil
        }
        if acceptingLostPrompt, answered?.isEmpty == true { return nil }
        guard let answered else {
            // gnome-keyring with no display ends its prompt at once as dismissed: nobody
            // dismissed anything, the keyring simply stays locked, and says so.
            throw display ? KeyringError.promptDismissed : KeyringError.locked
        }
        return (unlocked + answered).filter(paths.contains)
    }
}
