/// The keyring keys the session layer writes, in two namespaces that cannot
/// meet: `session/<property>` for secure session properties and
/// `account/<escaped account>/<key>` for ``SecretStore``. The account is escaped
/// (`NameEncoding`) so it holds no `/`: account `a` never sees the keys of `ab`
/// or of `a/b`. Apps that call `Keyring.setSecret` themselves should avoid
/// keys starting with `session/` or `account/`.
enum SecretKeys {
    static func property(_ rawValue: String) -> String {
        "session/" + rawValue
    }

    static func accountPrefix(_ account: String) -> String {
        "account/" + NameEncoding.escaped(account) + "/"
    }
}
