import Foundation
import SwiftKeyring

// A helper process for the encrypted file store's multi-process tests.
//
//   KeyringTestWorker FILE KEY-FILE PREFIX COUNT
//
// Opens the keyring FILE with the raw key in KEY-FILE and saves COUNT records
// (forever when COUNT is 0) under the keys PREFIX-0, PREFIX-1, …, each secret
// being `secret-` and its key. After each save returns it prints the key on a
// line of its own: the test counts a write as acknowledged once it reads it.

// Also `KeyringTestWorker async-progress …`: see AsyncProgressCheck.swift, and
// `KeyringTestWorker secret-service …`: see SecretServiceWrites.swift, and
// `KeyringTestWorker sync-move-kill …`: see SyncMoveKill.swift, and
// `KeyringTestWorker libsecret-file …`: see LibsecretFileWrites.swift, and
// `KeyringTestWorker answer-memory …`: see AnswerMemory.swift, and
// `KeyringTestWorker transport-leaks …`: see TransportLeaks.swift, and
// `KeyringTestWorker session-keyring …`: see SessionKeyringProbe.swift, and
// `KeyringTestWorker secret-service-read-memory …`: see SecretServiceReadMemory.swift, and
// `KeyringTestWorker kernel-store …`: see KernelStoreWorker.swift, and
// `KeyringTestWorker memory-scan …`: see SecretMemoryScan.swift.

let arguments = CommandLine.arguments
if arguments.count > 1 && arguments[1] == "async-progress" {
    exit(AsyncProgressCheck.run(Array(arguments.dropFirst(2))))
}
if arguments.count > 1 && arguments[1] == "sync-move-kill" {
    exit(SyncMoveKill.run(Array(arguments.dropFirst(2))))
}
if arguments.count > 1 && arguments[1] == "libsecret-file" {
    exit(LibsecretFileWrites.run(Array(arguments.dropFirst(2))))
}
if arguments.count > 1 && arguments[1] == "transport-leaks" {
    exit(await TransportLeaks.run(Array(arguments.dropFirst(2))))
}
if arguments.count > 1 && arguments[1] == "answer-memory" {
    exit(await AnswerMemory.run(Array(arguments.dropFirst(2))))
}
if arguments.count > 1 && arguments[1] == "session-keyring" {
    exit(SessionKeyringProbe.run(Array(arguments.dropFirst(2))))
}
if arguments.count > 1 && arguments[1] == "secret-service-read-memory" {
    exit(SecretServiceReadMemory.run(Array(arguments.dropFirst(2))))
}
if arguments.count > 1 && arguments[1] == "memory-scan" {
    exit(await SecretMemoryScan.run(Array(arguments.dropFirst(2))))
}
if arguments.count > 1 && arguments[1] == "kernel-store" {
    exit(KernelStoreWorker.run(Array(arguments.dropFirst(2))))
}
if arguments.count > 1 && arguments[1] == "secret-service" {
    exit(SecretServiceWrites.run(Array(arguments.dropFirst(2))))
}
guard arguments.count == 5, let count = Int(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: KeyringTestWorker FILE KEY-FILE PREFIX COUNT\n".utf8))
    exit(64)
}
let prefix = arguments[3]

do {
    let store = try EncryptedFileStore(
        url: URL(fileURLWithPath: arguments[1]),
        secret: .keyFile(URL(fileURLWithPath: arguments[2])),
        lockTimeout: .seconds(60)
    )
    var index = 0
    while count == 0 || index < count {
        let key = "\(prefix)-\(index)"
        try store.save(
            StoredRecord(
                id: RecordID(service: "worker", key: key, kind: .credentials),
                metadata: RecordMetadata(username: prefix, url: "https://example.com"),
                secret: Array("secret-\(key)".utf8)
            ))
        // Unbuffered, so the line is out before the next write starts.
        FileHandle.standardOutput.write(Data("\(key)\n".utf8))
        index += 1
    }
} catch {
    FileHandle.standardError.write(Data("KeyringTestWorker: \(error)\n".utf8))
    exit(1)
}
