#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// libsecret's file in the selection: chosen where libsecret chooses it (a sandbox
/// with a Secret portal) or when asked for, and keyed by the portal or the encrypted
/// file's sources.
extension StoreSelector {
    /// The bound on asking whether the Secret portal answers: longer than the Secret
    /// Service's, since the bus may start the portal to answer (0.2 to 0.4 s here).
    static let portalProbeTimeout: Duration = .seconds(2)

    /// The automatic choice inside a sandbox, as libsecret makes it: its file when the
    /// Secret portal answers. Outside a sandbox, `(nil, nil)`; inside one without a
    /// portal, no selection and a note for the reason of the choice made instead.
    static func sandboxSelection(_ configuration: KeyringConfiguration) throws -> (StoreSelection?, note: String?) {
        guard let sandbox = AppSandbox.reason(environment: configuration.environment) else { return (nil, nil) }
        let portal = SecretPortal.probe(
            timeout: min(configuration.timeout, portalProbeTimeout), environment: configuration.environment)
        guard case .available = portal else {
            return (nil, "inside a sandbox (\(sandbox)) but \(portal), so not libsecret's file, as libsecret decides")
        }
        let selection = try libsecretFileSelection(
            configuration, reason: "inside a sandbox (\(sandbox)) with a Secret portal, as libsecret chooses", portal: portal,
            sandboxed: true)
        return (selection, nil)
    }

    /// libsecret's file, with its key source decided (`portal`: what the decision already asked
    /// the portal). `reason` alone when asked for; with the file's path when chosen in a sandbox.
    static func libsecretFileSelection(
        _ configuration: KeyringConfiguration, reason: String, portal: SecretPortal.Availability? = nil,
        sandboxed: Bool = false
    ) throws -> StoreSelection {
        let place = sandboxed ? ": libsecret's file at \(configuration.resolvedLibsecretFileURL.path)" : ""
        var selection = StoreSelection(kind: .libsecretFile, reason: reason + place)
        selection.libsecretKey = try libsecretKeySource(configuration, portal: portal, sandboxed: sandboxed)
        return selection
    }

    /// Which secret keys libsecret's file. The setting decides; under `auto`, inside a sandbox
    /// the portal, as libsecret keys its file there (so libsecret in the same app reads ours);
    /// elsewhere a passphrase or key that is set, else the portal when it answers, else the
    /// encrypted file's sources (whose error then names them all).
    static func libsecretKeySource(
        _ configuration: KeyringConfiguration, portal known: SecretPortal.Availability?, sandboxed: Bool
    ) throws -> LibsecretKeySource {
        let setting = configuration.libsecretKey != nil ? "libsecretKey" : KeyringConfiguration.libsecretKeyVariable
        switch try configuration.requestedLibsecretKey() {
        case .portal:
            return LibsecretKeySource(origin: .portal, reason: "\(setting) is portal")
        case .passphrase:
            return LibsecretKeySource(origin: .fileSecret, reason: "\(setting) is passphrase")
        case .auto:
            if sandboxed {
                return LibsecretKeySource(origin: .portal, reason: "libsecret keys its file so inside a sandbox")
            }
            if let secret = configuredSecret(configuration) {
                return LibsecretKeySource(origin: .fileSecret, reason: "one is set (\(secret))")
            }
            let portal =
                known
                ?? SecretPortal.probe(
                    timeout: min(configuration.timeout, portalProbeTimeout), environment: configuration.environment)
            if case .available = portal {
                return LibsecretKeySource(origin: .portal, reason: "no passphrase or key is set and the Secret portal answers")
            }
            return LibsecretKeySource(origin: .fileSecret, reason: "\(portal)")
        }
    }

    /// Which passphrase or key the caller or the environment sets, as its description (never
    /// the secret); `nil` when no source gives one. A source that is set but cannot be read
    /// counts as set: opening the store then reports what is wrong with it.
    private static func configuredSecret(_ configuration: KeyringConfiguration) -> String? {
        do {
            return try FileStoreSecret.resolve(explicit: configuration.fileSecret, environment: configuration.environment)
                .description
        } catch let error as KeyringError where error.code == .passphraseRequired {
            return nil
        } catch {
            return "a source that cannot be read"
        }
    }

    /// Opens libsecret's file with the key source the decision chose (the encrypted file's
    /// sources when it chose none, for a selection made elsewhere).
    ///
    /// With the encrypted file's sources, a key unlocked for this file in the login session
    /// comes first (no password, no PBKDF2); the sources are asked only when there is none
    /// or it does not open the file, so with no source set an unlocked file still opens.
    static func openLibsecretFile(_ selection: StoreSelection, _ configuration: KeyringConfiguration) throws
        -> LibsecretFileStore
    {
        let url = configuration.resolvedLibsecretFileURL
        guard selection.libsecretKey?.origin == .portal else {
            let (explicit, environment) = (configuration.fileSecret, configuration.environment)
            return try LibsecretFileStore(
                url: url,
                unlockedOrElse: {
                    try KeyringError.placing(in: .libsecretFile) {
                        try LibsecretFileKey.resolve(explicit: explicit, environment: environment).password()
                    }
                }, lockTimeout: configuration.fileLockTimeout)
        }
        let password = try KeyringError.placing(in: .libsecretFile) {
            try LibsecretFileKey.portal.password(
                environment: configuration.environment, timeout: configuration.timeout,
                responseTimeout: configuration.requestedPromptTimeout())
        }
        return try LibsecretFileStore(
            url: url, password: password, lockTimeout: configuration.fileLockTimeout, keyedByPortal: true)
    }
}
