/// The app's session properties, declared once as an enum.
///
/// Each case says where its value lives and whether it outlives a logout:
///
/// ```swift
/// enum AppProperty: String, SessionProperty {
///     case token, userID, email, hasSeenOnboarding
///
///     var isSecure: Bool { self == .token }
///     var isPersisted: Bool { self == .hasSeenOnboarding || self == .email }
/// }
/// ```
///
/// The raw value names the property in storage: renaming a case loses what was
/// saved under the old name.
public protocol SessionProperty: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {
    /// `true`: the value is kept in the keyring, as a secret of the app's service.
    /// `false`: it is kept in the plain JSON state file, readable by the user's own programs.
    var isSecure: Bool { get }
    /// `true`: the value survives `Session.logout()`. A required property cannot be persisted.
    var isPersisted: Bool { get }
}
