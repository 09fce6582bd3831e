import KeyringCommandLine
import Testing

/// A credential git sent never shows its password when printed, dumped or interpolated
/// (a log line or a debugger session of the helper), only that there was one.
@Suite("git credential mirror")
struct GitCredentialMirrorTests {
    @Test("description, dump and interpolation hide the password and keep the rest")
    func passwordHidden() {
        let credential = GitCredential(protocol: "https", host: "example.com", username: "alice", password: "s3cret-token")
        var dumped = ""
        dump(credential, to: &dumped)
        for text in [String(describing: credential), "\(credential)", String(reflecting: credential), dumped] {
            #expect(
                !text.contains("s3cret-token"),
                "the password shows in: \(text.replacingOccurrences(of: "s3cret-token", with: "…"))")
            #expect(text.contains("alice") && text.contains("example.com"))
        }
    }
}
