/// Which of the user's keyrings in the kernel holds a ``KernelKeyringStore``'s records.
///
/// The words are those of `SWIFT_KEYRING_KERNEL_KEYRING`.
public enum KernelKeyringScope: String, Sendable, Hashable, CaseIterable, Codable {
    /// The user's persistent keyring (`persistent-keyring(7)`): every process of the user reaches
    /// it, in any login; it outlives a logout and is forgotten after
    /// `/proc/sys/kernel/keys/persistent_keyring_expiry` seconds (three days by default) unused,
    /// and at reboot.
    case persistent
    /// The login session's keyring: the session's own processes only, forgotten when it ends.
    case session
}
