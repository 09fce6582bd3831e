import KeyringCommandLine

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
        // Every buffer that held the secret is wiped where it was used; nothing is at the exit
        // (the stack holds no copy: this executable binds its symbols at load, Package.swift).
        let status = DockerCredentialHelper.run(Array(CommandLine.arguments.dropFirst()))
        if status != 0 { exit(status) }
    }
}
