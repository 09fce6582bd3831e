import Foundation
import KeyringCommandLine
import Testing

/// `ProcessEnvironment.read`, the tool's own reading of `environ`: the same variables
/// `ProcessInfo` gives, and where a variable is there twice, the first, as `getenv` reads it.
@Suite("CLI: the process environment")
struct CLIProcessEnvironmentTests {
    @Test("The environment read is ProcessInfo's")
    func sameAsProcessInfo() {
        #expect(ProcessEnvironment.read() == ProcessInfo.processInfo.environment)
    }

    @Test("A variable given twice reads as its first; values keep their '=' and bytes; entries without '=' are skipped")
    func entries() {
        let lines = ["A=first", "B=x=y", "NO-EQUALS", "A=second", "C=", "D=ünï 🔑", "B=later"]
        var pointers: [UnsafeMutablePointer<CChar>?] = lines.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        let read = pointers.withUnsafeMutableBufferPointer { ProcessEnvironment.read($0.baseAddress!) }
        #expect(read == ["A": "first", "B": "x=y", "C": "", "D": "ünï 🔑"])
    }
}
