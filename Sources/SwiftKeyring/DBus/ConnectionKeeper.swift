internal import CGcrypt

/// Keeps a bus connection open a while after this process lets go of it with calls the
/// daemon has not answered: a call's bound reached, a task cancelled, or the process exiting
/// after either.
///
/// gnome-keyring (42 to 50 at least) aborts when it handles a call whose sender has already
/// left the bus: its `OpenSession` handler finds no record of the caller and hands GLib a NULL
/// reply (`gkd_secret_service_get_pkcs11_session: assertion 'client' failed`, then
/// `g_variant_new` ends the daemon; gnome-keyring issues 190, 194, 195, Debian bug 1147303). A
/// busy or stopped daemon that reads an `OpenSession` and the bus's word that its sender left,
/// both at once, dies that way, and the bus then starts a new one whose login keyring is locked:
/// one client giving up on a slow daemon would lock every other program out. A child process
/// holding a copy of the socket keeps the sender on the bus until the daemon has answered.
enum ConnectionKeeper {
    /// How long the copy stays open: longer than any daemon stall a person waits out.
    static let seconds: UInt32 = 120

    /// Starts the child holding a copy of `descriptor`; false when none could be started
    /// (the connection then closes as it would have).
    static func keepOpen(_ descriptor: Int32) -> Bool {
        swift_keyring_keep_open(descriptor, seconds) == 0
    }
}
