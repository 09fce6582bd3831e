import Foundation
import KeyringTestSupport
import Testing

/// The docker helper where the kernel refuses its key calls (Docker's default seccomp profile:
/// `add_key`, `keyctl` and `request_key` fail with EPERM), as ``CLIKeyCallsRefusedTests`` runs the
/// tool and the git helper: a CI job inside a container stores and reads its registry login in
/// the encrypted file, the key cache simply out of reach.
@Suite(
    "Docker helper where the kernel refuses the key calls (seccomp)",
    .enabled(if: KeyCallFilter.canRun, "needs cc to build the seccomp launcher (CI=true fails instead)"))
struct DockerKeyCallsRefusedTests {
    @Test("store, get, list and erase work under the filter on the file store, by passphrase and by key file")
    func helperWorksUnderFilter() throws {
        // A file each: the first one a passphrase makes is not the key file's.
        let (byPassphrase, byKey) = (try Sandbox(), try Sandbox())
        for (way, environment) in [("passphrase", byPassphrase.passphraseEnvironment()), ("key file", byKey.fileEnvironment())] {
            let server = DockerHelperClient.uniqueServer()
            let secret = "docker-seccomp-\(UUID().uuidString)"
            let request = try JSONSerialization.data(
                withJSONObject: ["ServerURL": server, "Username": "ci", "Secret": secret])
            let helper = DockerHelperClient.helper
            let stored = try KeyCallFilter.run(
                .refuse, helper, ["store"], environment: environment, stdin: String(decoding: request, as: UTF8.self))
            #expect(stored.status == 0, "the helper could not store under the filter (\(way)): \(stored.text)")
            let got = try KeyCallFilter.run(.refuse, helper, ["get"], environment: environment, stdin: server)
            let answer = try? JSONSerialization.jsonObject(with: Data(got.text.utf8)) as? [String: String]
            let answered = got.status == 0 && answer == ["ServerURL": server, "Username": "ci", "Secret": secret]
            #expect(answered, "the helper did not answer under the filter (\(way)): status \(got.status)")
            let listed = try KeyCallFilter.run(.refuse, helper, ["list"], environment: environment)
            #expect(listed.status == 0 && listed.text.contains(server), "list under the filter (\(way)): \(listed.text)")
            let erased = try KeyCallFilter.run(.refuse, helper, ["erase"], environment: environment, stdin: server)
            #expect(erased.status == 0, "erase under the filter (\(way)): \(erased.text)")
            // Read back free of the filter: the login is gone from the file itself.
            let gone = try DockerHelperClient(environment: environment).get(server) == nil
            #expect(gone, "erase under the filter (\(way)) left the login in the file")
        }
    }
}
