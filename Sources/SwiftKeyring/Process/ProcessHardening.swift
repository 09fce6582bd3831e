internal import CGcrypt

/// What a short-lived process that handles secrets (the `swift-keyring` tool)
/// does first: no core dump, and memory that other processes of the same user
/// cannot read through ptrace or `/proc/PID/mem`.
///
/// A library must not change its host process this way, so only the tool calls it.
package enum ProcessHardening {
    /// Sets the core-file limit to zero and marks the process not dumpable.
    /// - Returns: the `errno` of the step that failed, or `nil` when both took effect.
    @discardableResult
    package static func forbidDumps() -> Int32? {
        let code = swift_keyring_process_forbid_dumps()
        return code == 0 ? nil : code
    }
}
