/// Which store `Keyring(service:configuration:)` should open: one kind, or the automatic choice.
///
/// The raw values are the words of `SWIFT_KEYRING_BACKEND` and the tool's `--backend`.
/// (Before the stores said what they are, this was `KeyringBackend`.)
public enum StoreChoice: String, Sendable, Hashable, CaseIterable, Codable {
    /// The Secret Service when a session bus and `org.freedesktop.secrets` answer, otherwise the encrypted file;
    /// inside a Flatpak or Snap whose Secret portal answers, libsecret's file, as libsecret chooses it.
    case auto
    /// The desktop's Secret Service (gnome-keyring, KeePassXC, …).
    case secretService = "secret-service"
    /// The libgcrypt-encrypted file.
    case file
    /// Records in memory, gone when the process ends.
    case memory
    /// libsecret's own keyring file (`$XDG_DATA_HOME/keyrings/default.keyring`), as Flatpak and Snap apps keep it.
    case libsecretFile = "libsecret-file"
    /// Keys in the kernel's keyrings, in the user's persistent keyring unless
    /// ``KeyringConfiguration/kernelKeyring`` says otherwise; never chosen by `.auto`,
    /// for the kernel forgets them at reboot.
    case kernel

    /// The kind this choice opens; `nil` for `.auto`, which decides when the keyring opens.
    public var kind: StoreKind? {
        self == .auto ? nil : StoreKind(rawValue: rawValue)
    }
}

/// The old name of ``StoreChoice``.
@available(*, deprecated, renamed: "StoreChoice")
public typealias KeyringBackend = StoreChoice
