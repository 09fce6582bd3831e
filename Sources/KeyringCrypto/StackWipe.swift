internal import CGcrypt

/// Wipes the stack that a finished piece of work left below the current frame.
///
/// A wipe of every buffer that held a secret is not enough on its own: the dynamic linker's
/// lazy-binding trampoline saves all vector registers to the stack whenever a library function
/// is first called, and `memcpy`, `memcmp` and `memchr` move a secret through those registers.
/// A core of git's helper after `erase` or a replacing `store` (kernel store, debug build) held
/// two such copies on the main thread's stack, inside `_dl_runtime_resolve_xsavec`'s save area.
package enum StackWipe {
    /// How much of the stack below the caller is overwritten: far more than the deepest
    /// call chain of a helper run needs (about 20 KiB measured), far less than the 8 MiB stack.
    package static let defaultBytes = 256 * 1024

    /// Overwrites with zeros `bytes` of this thread's stack below the caller's frame.
    package static func belowCaller(bytes: Int = defaultBytes) {
        swift_keyring_wipe_stack(bytes)
    }
}
