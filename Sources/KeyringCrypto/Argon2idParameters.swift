/// The cost of turning a passphrase into the encrypted file's key with Argon2id.
///
/// The parameters are written into the file's header, so a file keeps opening
/// after the defaults change. A raw key file skips the KDF altogether.
///
/// ```swift
/// // Cheaper than the default: for tests, never for real secrets.
/// let store = try EncryptedFileStore(url: url, secret: .passphrase("test"),
///                                    keyDerivation: Argon2idParameters(iterations: 1, memoryKiB: 64, parallelism: 1))
/// ```
public struct Argon2idParameters: Sendable, Hashable, CustomStringConvertible {
    /// Passes over memory (Argon2's t), 1 to 10.
    public var iterations: UInt32
    /// Memory used, in KiB (Argon2's m); at least 8 × `parallelism`, at most 1 GiB (1048576 KiB).
    public var memoryKiB: UInt32
    /// Lanes (Argon2's p), 1 to 4; libgcrypt computes them one after another.
    public var parallelism: UInt32

    /// The default for new files: t = 3, m = 64 MiB, p = 1. That is 0.15 to 0.3 s of one core,
    /// depending on the machine, and 64 MiB that an attacker must spend on every guess.
    public static let recommended = Argon2idParameters(iterations: 3, memoryKiB: 64 * 1024, parallelism: 1)

    /// The largest cost a file may ask for (docs/FILE_FORMAT.md): t = 10, m = 1 GiB, p = 4.
    ///
    /// Anyone who can write the file can write its header, so its cost is input
    /// from others: the bound keeps one open to what a person's machine should
    /// spend (a few seconds and 1 GiB, at most), and it stays clear of
    /// libgcrypt 1.10's 32-bit overflow of `1024 × m` at m = 4 GiB. A file asking
    /// for more is refused as damaged before anything is derived.
    package static let maximum = Argon2idParameters(iterations: 10, memoryKiB: 1024 * 1024, parallelism: 4)

    /// Creates parameters; they are checked when a store uses them.
    public init(iterations: UInt32, memoryKiB: UInt32, parallelism: UInt32) {
        self.iterations = iterations
        self.memoryKiB = memoryKiB
        self.parallelism = parallelism
    }

    /// `argon2id t=3 m=65536 KiB p=1`.
    public var description: String {
        "argon2id t=\(iterations) m=\(memoryKiB) KiB p=\(parallelism)"
    }

    /// Why these parameters are weaker than `recommended`, or `nil` when they are not:
    /// fewer passes or less memory make each guess of the passphrase cheaper.
    package var weakness: String? {
        guard iterations < Self.recommended.iterations || memoryKiB < Self.recommended.memoryKiB else { return nil }
        return
            "\(description) is weaker than the default (\(Self.recommended)); `swift-keyring passwd` rewrites the file at the default cost"
    }

    /// Why these parameters cannot be used, or `nil` when they can.
    package var problem: String? {
        if iterations < 1 || iterations > Self.maximum.iterations {
            return "iterations must be between 1 and \(Self.maximum.iterations), not \(iterations)"
        }
        if parallelism < 1 || parallelism > Self.maximum.parallelism {
            return "parallelism must be between 1 and \(Self.maximum.parallelism), not \(parallelism)"
        }
        if memoryKiB < 8 * parallelism || memoryKiB > Self.maximum.memoryKiB {
            return "memory must be between \(8 * parallelism) KiB and \(Self.maximum.memoryKiB) KiB, not \(memoryKiB) KiB"
        }
        return nil
    }
}
