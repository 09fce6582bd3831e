#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The TLS files for `https://` members: a CA to trust (instead of the system's), and a
/// client certificate and key for clusters that ask for one (`--client-cert-auth`).
public struct EtcdTLS: Sendable, Hashable {
    /// A PEM file of the CA(s) that signed the members' certificates; `nil` trusts the system's CAs.
    public var caFile: URL?
    /// A PEM client certificate, presented when a member asks for one.
    public var certificateFile: URL?
    /// The PEM private key of `certificateFile`; other users must not be able to read it.
    public var keyFile: URL?

    /// Creates TLS settings; all `nil` means the system's CAs and no client certificate.
    public init(caFile: URL? = nil, certificateFile: URL? = nil, keyFile: URL? = nil) {
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }
}
