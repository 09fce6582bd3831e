import Foundation
import SwiftKeyring

// Whether a read leaves copies of the password in this process's memory, for `SecretWipeTests`:
//
//   KeyringTestWorker memory-scan SERVICE KEY REVERSED-PASSWORD credentials|password|async-credentials|async-password
//
// Reads the credentials record KEY of SERVICE from the kernel store (the password lives in the
// kernel, so a copy in this process is one a read made) through the named call, keeps the value
// returned, and searches every writable mapping of this process for the password's bytes (the
// argument is reversed, so it is no copy itself). Prints `returned-seen true|false` (the scan finds
// the value returned: it can see a copy) and `stray N`, the copies anywhere else (freed memory included).
enum SecretMemoryScan {
    static func run(_ arguments: [String]) async -> Int32 {
        guard arguments.count == 4 else {
            FileHandle.standardError.write(Data("usage: KeyringTestWorker memory-scan SERVICE KEY REVERSED-PASSWORD READ\n".utf8))
            return 64
        }
        do {
            let needle = Array(arguments[2].utf8.reversed())
            let keyring = try Keyring(service: arguments[0], store: KernelKeyringStore())
            var password: String?
            switch arguments[3] {
            case "credentials", "password": password = try syncRead(keyring, arguments[1], arguments[3])
            case "async-credentials": password = try await keyring.credentials(forKey: arguments[1])?.password
            case "async-password": password = try await keyring.password(forKey: arguments[1])
            default: return 64
            }
            guard var returned = password else {
                print("absent")
                return 1
            }
            let returnedAt = returned.withUTF8 { UInt(bitPattern: $0.baseAddress) }
            let needleAt = needle.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
            let found = occurrences(of: needle)
            print("returned-seen \(found.contains(returnedAt))")
            print("stray \(found.filter { $0 != returnedAt && $0 != needleAt }.count)")
            withExtendedLifetime(returned) {}
            return 0
        } catch {
            FileHandle.standardError.write(Data("KeyringTestWorker memory-scan: \(error)\n".utf8))
            return 1
        }
    }

    /// The sync faces, outside the async context that would choose the async ones.
    private static func syncRead(_ keyring: Keyring, _ key: String, _ read: String) throws -> String? {
        read == "password" ? try keyring.password(forKey: key) : try keyring.credentials(forKey: key)?.password
    }

    /// The addresses in this process's writable private mappings where `needle` begins.
    private static func occurrences(of needle: [UInt8]) -> [UInt] {
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return [] }
        var found: [UInt] = []
        found.reserveCapacity(64)
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // Writable and private: the heap, stacks, anonymous memory; not the kernel's [vvar] or shared files.
            guard fields.count >= 2, fields[1].hasPrefix("rw") && fields[1].hasSuffix("p"),
                !line.hasSuffix("[vvar]"), !line.hasSuffix("[vsyscall]")
            else { continue }
            let range = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
            guard range.count == 2, range[1] - range[0] >= UInt(needle.count) else { continue }
            needle.withUnsafeBufferPointer { pattern in
                // memchr to each byte that could begin it: a debug build's byte loop takes minutes.
                var cursor = UnsafeRawPointer(bitPattern: range[0])!
                let end = UnsafeRawPointer(bitPattern: range[1] - UInt(pattern.count) + 1)!
                while cursor < end, let hit = memchr(cursor, Int32(pattern[0]), end - cursor) {
                    let at = UnsafeRawPointer(hit)
                    if memcmp(at, pattern.baseAddress!, pattern.count) == 0 { found.append(UInt(bitPattern: at)) }
                    cursor = at + 1
                }
            }
        }
        return found
    }
}
