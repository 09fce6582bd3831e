import KeyringCrypto
import Testing

/// HKDF-SHA256 as the file format derives its keys (docs/FILE_FORMAT.md, "Keys"): RFC 5869's
/// vectors, and the keys of one HMAC set-up for several purposes equal to those of one set-up each.
@Suite("Key derivation: HKDF-SHA256")
struct KeyDerivationTests {
    private static func hex(_ key: SecureBytes) -> String {
        key.withBytes { $0.map { String(format: "%02x", $0) }.joined() }
    }

    @Test("RFC 5869 A.3 (no salt, no info): the pseudorandom key and the first block")
    func rfcVector() throws {
        let input = try SecureBytes(copying: [UInt8](repeating: 0x0b, count: 22))
        let prk = try KeyDerivation.extract(master: input, salt: [])
        #expect(Self.hex(prk) == "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04")
        #expect(
            Self.hex(try KeyDerivation.expand(prk, info: ""))
                == "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d")
        #expect(Self.hex(try KeyDerivation.expand(prk, info: "", length: 16)) == "8da4e775a563c18f715f802a063c5a31")
    }

    @Test("RFC 5869 A.1's pseudorandom key, from a salt")
    func rfcSalted() throws {
        let input = try SecureBytes(copying: [UInt8](repeating: 0x0b, count: 22))
        let prk = try KeyDerivation.extract(master: input, salt: Array(0...12))
        #expect(Self.hex(prk) == "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5")
    }

    @Test("Several purposes under one HMAC set-up give each purpose's own key, in order")
    func severalPurposes() throws {
        let prk = try KeyDerivation.extract(master: try SecureBytes(copying: Array(0..<32)), salt: Array(100..<132))
        let infos = ["swift-keyring/1 key check", "swift-keyring/1 record entry", "", "swift-keyring/1 file mac"]
        let together = try KeyDerivation.expand(prk, infos: infos).map(Self.hex)
        let apart = try infos.map { Self.hex(try KeyDerivation.expand(prk, info: $0)) }
        #expect(together == apart)
        #expect(Set(together).count == infos.count)
    }
}
