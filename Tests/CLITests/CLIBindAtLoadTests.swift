import Foundation
import KeyringTestSupport
import Testing

/// The executables bind every symbol when they load (`-z now`, Package.swift), so the dynamic
/// linker's lazy-binding trampoline never runs for their calls: it saves every vector register
/// on the stack, and those memcpy or memcmp had just moved a password through stayed there,
/// unwiped (CLISecretCoreTests looks for such copies; they come and go with the stack's layout,
/// so this check holds the cause, where theirs sees the effect only when it lands).
@Suite("CLI: symbols bound at load")
struct CLIBindAtLoadTests {
    /// A helper built beside the tool.
    static func helper(_ name: String) -> URL {
        CLI.binary.deletingLastPathComponent().appendingPathComponent(name)
    }

    @Test(
        "The tool and the git and docker helpers are marked to bind every symbol at load (BIND_NOW), not at each first call",
        arguments: ["swift-keyring", "git-credential-swift-keyring", "docker-credential-swift-keyring"])
    func bindsAtLoad(_ name: String) throws {
        let binary = name == "swift-keyring" ? CLI.binary : Self.helper(name)
        let dynamic = try Command.run("readelf", ["--dynamic", binary.path])
        try #require(dynamic.status == 0, "readelf could not read \(binary.path): \(dynamic.stderr)")
        // `-z now` writes both: DF_BIND_NOW in FLAGS and DF_1_NOW in FLAGS_1; ld.so honours either.
        let flags = dynamic.text.split(separator: "\n").filter { $0.contains("(FLAGS") }
        try #require(!flags.isEmpty, "readelf shows no dynamic section flags for \(name)")
        let bindsNow = flags.contains { $0.contains("BIND_NOW") || $0.contains(" NOW") }
        #expect(bindsNow, "\(name) binds symbols lazily: \(flags.joined(separator: "; "))")
    }
}
