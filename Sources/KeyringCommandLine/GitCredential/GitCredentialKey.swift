#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The record key of a git credential, `protocol://username@host[/path]`, and its inverse.
///
/// Each part is percent-encoded so that the delimiters are the only `@` and `/` bytes
/// where they stand: the username keeps no `@`, `/` or `:`, the host no `@` or `/`. The
/// key is split back as bytes (UTF-8), never as `Character`s: U+0D4E and the Prepend
/// letters U+0600–U+0605 join the character after them, so an `@` after one is no
/// `Character` of its own, and a split by `Character`s found the next `@`, in the path.
///
/// A key answers only when it is exactly the key of the parts it names: a key this helper
/// did not write, or one another encoding wrote (by hand, or by another tool), is never
/// taken for a credential, however it would split.
package enum GitCredentialKey {
    /// `host:port` and an IPv6 literal's brackets stay readable in a key.
    static let hostBytes: [UInt8] = Array(":[]".utf8)
    /// A URL path's own characters (RFC 3986 `pchar` and `/`) stay readable in a key.
    static let pathBytes: [UInt8] = Array("/:@!$&'()*+,;=".utf8)

    /// The key of a credential's protocol, host, username and (when given) path.
    package static func key(of credential: GitCredential) -> String {
        var key = (credential.protocol ?? "") + "://"
        key += PercentEncoding.encode(credential.username ?? "") + "@"
        key += PercentEncoding.encode(credential.host ?? "", keeping: hostBytes)
        if let path = credential.path { key += "/" + PercentEncoding.encode(path, keeping: pathBytes) }
        return key
    }

    /// The credential `key` names (no password), or `nil` unless `key` is an http or https
    /// key with a host that is, byte for byte, the key of the parts it splits into.
    package static func credential(ofKey key: String) -> GitCredential? {
        let bytes = Array(key.utf8)
        guard let schemeEnd = bytes.firstRange(of: Array("://".utf8)),
            GitCredential.isWebProtocol(bytes[..<schemeEnd.lowerBound])
        else { return nil }
        let start = schemeEnd.upperBound
        guard let at = bytes[start...].firstIndex(of: UInt8(ascii: "@")), let username = PercentEncoding.decode(bytes[start..<at])
        else { return nil }
        let slash = bytes[(at + 1)...].firstIndex(of: UInt8(ascii: "/"))
        guard let host = PercentEncoding.decode(bytes[(at + 1)..<(slash ?? bytes.endIndex)]), !host.isEmpty else { return nil }
        var credential = GitCredential(
            protocol: String(decoding: bytes[..<schemeEnd.lowerBound], as: UTF8.self), host: host, username: username)
        if let slash {
            guard let path = PercentEncoding.decode(bytes[(slash + 1)...]) else { return nil }
            credential.path = path
        }
        // Any other spelling of these parts (a raw "%", a byte encoded that need not be, a
        // delimiter left raw where the encoder encodes it) is not a key this helper wrote.
        guard self.key(of: credential).utf8.elementsEqual(bytes) else { return nil }
        return credential
    }

    /// The remote's URL, `protocol://host[/path]`, as the record's URL: ASCII only, and with
    /// the host's brackets and colon encoded too when they make no URL with a host.
    static func url(of credential: GitCredential) -> URL? {
        for kept in [hostBytes, []] {
            var text = (credential.protocol ?? "") + "://"
            text += PercentEncoding.encode(credential.host ?? "", keeping: kept, asciiOnly: true)
            if let path = credential.path { text += "/" + PercentEncoding.encode(path, keeping: pathBytes, asciiOnly: true) }
            if let url = URL(string: text), url.host != nil { return url }
        }
        return nil
    }
}
