/// Unlocks Secret Service objects (`Service.Unlock`), completing the unlock prompt the daemon
/// returns when it asks the person (`SecretPrompt.outcome`).
enum UnlockPrompt {
    /// Unlocks `paths`; returns those of them unlocked, which may be fewer when the daemon refused some.
    /// - Throws: `KeyringError.promptDismissed`, `.locked` for a prompt that ended at once
    ///   with no display to show it on (see `SecretServiceStore.canShowPrompt`),
    ///   `.promptTimedOut` when nobody answered it in time, `CancellationError` for a
    ///   cancelled task, or the calls' own errors.
    static func unlock(_ paths: [String], with service: ServiceInterface, in operation: SecretOperation) throws
        -> [String]
    {
        if let unlocked = try unlockOnce(paths, with: service, in: operation, acceptingLostPrompt: true) {
            return unlocked
        }
        // The prompt ended before it was shown, unlocking nothing (see `unlockOnce`): the
        // objects are asked again, which another client's unlock has usually done.
        return try unlockOnce(paths, with: service, in: operation, acceptingLostPrompt: false) ?? []
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
        _ paths: [String], with service: ServiceInterface, in operation: SecretOperation, acceptingLostPrompt: Bool
    ) throws -> [String]? {
        let reply = try service.unlock(paths, in: operation)
        let outcome: SecretPrompt.Outcome
        do {
            outcome = try SecretPrompt.outcome(
                of: reply.prompt, on: service.object.bus, daemon: service.object.destination, unlocking: true,
                in: operation)
        } catch let error as KeyringError
            where acceptingLostPrompt && error.backendDomain == "org.freedesktop.DBus.Error.UnknownObject"
        {
            return nil
        }
        // Only what was asked counts as unlocked: a path the daemon names beside them is
        // no item of this operation's, and an asked one it leaves out is still locked.
        switch outcome {
        case .none:
            return reply.unlocked.filter(paths.contains)
        case .completed(let answered):
            if acceptingLostPrompt && answered.isEmpty { return nil }
            return (reply.unlocked + answered).filter(paths.contains)
        case .dismissed:
            // gnome-keyring with no display ends its prompt at once as dismissed: nobody
            // dismissed anything, the keyring simply stays locked, and says so.
            throw operation.prompt.display ? KeyringError.promptDismissed : KeyringError.locked
        }
    }
}
