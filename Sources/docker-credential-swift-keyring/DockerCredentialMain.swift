import KeyringCommandLine
import KeyringCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// `docker-credential-swift-keyring [OPTIONS] store|get|erase|list|version`: the credential
/// helper docker, podman, skopeo and buildah run for `"credsStore": "swift-keyring"` or a
/// `credHelpers` entry naming `swift-keyring` (``DockerCredentialHelper`` speaks the protocol).
@main
struct DockerCredentialMain {
    static func main() {
        ProcessStart.begin()
        let status = DockerCredentialHelper.run(Array(CommandLine.arguments.dropFirst()))
        // Every buffer that held the secret is wiped; the stack its calls used is not (``StackWipe``).
        StackWipe.belowCaller()
        if status != 0 { exit(status) }
    }
}
