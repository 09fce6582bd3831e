#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A user as an error names them: the login name the password database gives (escaped
/// as any text of another's before a terminal sees it, since an administrator chose it)
/// and the uid, such as `user 1001 (alice)`; the uid alone when the database has no entry.
enum UserName {
    static func describe(_ uid: uid_t) -> String {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let status = getpwuid_r(uid, &entry, &buffer, buffer.count, &found)
        guard status == 0, found != nil, let name = entry.pw_name else { return "user \(uid)" }
        let text = String(cString: name).unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }.joined()
        return "user \(uid) (\(text))"
    }
}
