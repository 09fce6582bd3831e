import CKernelKeys
import Foundation

// What another process sees of the session keyring, for the unlock tests.
//
//   KeyringTestWorker session-keyring read NAME
//       prints `readable` when this process finds the `user` key NAME in its session
//       keyring and can read its payload, else `absent`;
//   KeyringTestWorker session-keyring new-session PROGRAM ARGUMENT…
//       joins a new, empty session keyring (as `keyctl new_session` does) and runs PROGRAM:
//       a process of another login session.
enum SessionKeyringProbe {
    static func run(_ arguments: [String]) -> Int32 {
        switch arguments.first {
        case "read" where arguments.count == 2:
            print(canRead(arguments[1]) ? "readable" : "absent")
            return 0
        case "new-session" where arguments.count >= 2:
            guard
                swift_keyring_keyctl(Int32(SWIFT_KEYRING_KEYCTL_JOIN_SESSION_KEYRING), 0, 0, 0, 0) >= 0
            else {
                FileHandle.standardError.write(Data("could not join a new session keyring\n".utf8))
                return 70
            }
            let program = Array(arguments.dropFirst())
            var pointers = program.map { strdup($0) } + [nil]
            execv(program[0], &pointers)
            FileHandle.standardError.write(Data("could not run \(program[0])\n".utf8))
            return 70
        default:
            FileHandle.standardError.write(
                Data("usage: KeyringTestWorker session-keyring read NAME | new-session PROGRAM ARGUMENT…\n".utf8))
            return 64
        }
    }

    private static func canRead(_ name: String) -> Bool {
        let session = swift_keyring_keyctl(
            Int32(SWIFT_KEYRING_KEYCTL_GET_KEYRING_ID), UInt(bitPattern: SWIFT_KEYRING_KEY_SPEC_SESSION), 0, 0, 0)
        guard session >= 0 else { return false }
        let key = name.withCString { description in
            "user".withCString { type in
                swift_keyring_keyctl(
                    Int32(SWIFT_KEYRING_KEYCTL_SEARCH), UInt(bitPattern: session), UInt(bitPattern: type),
                    UInt(bitPattern: description), 0)
            }
        }
        guard key >= 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 64)
        let read = buffer.withUnsafeMutableBytes { bytes in
            let count = swift_keyring_keyctl(
                Int32(SWIFT_KEYRING_KEYCTL_READ), UInt(bitPattern: key), UInt(bitPattern: bytes.baseAddress),
                UInt(bytes.count), 0)
            bytes.initializeMemory(as: UInt8.self, repeating: 0)
            return count
        }
        return read > 0
    }
}
