import KeyringCrypto
import Testing

/// HKDF-SHA256 as the file format derives its keys (docs/FILE_FORMAT.md, "Keys"): RFC 5869's
/// vectors, and the keys of one HMAC set-up for several purposes equal to those of one set-up each.
/// Keys are compared as Bools, so that a failure names the key and prints none.
@Suite("Key derivation: HKDF-SHA256")
struct KeyDerivationTests {
    private static func hex(_ key: SecureBytes) -> String {
        key.withBytes { $0.map { String(format: "%02x", $0) }.joined() }
    }

    @Test("RFC 5869 A.3 (no salt, no info): the pseudorandom key and the first block")
    func rfcVector() throws {
        let input = try SecureBytes(copying: [UInt8](repeating: 0x0b, count: 22))
        let prk = try KeyDerivation.extract(master: input, salt: [])
        let prkMatches = Self.hex(prk) == "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04"
        #expect(prkMatches, "the pseudorandom key is not RFC 5869 A.3's")
        let blockMatches =
            Self.hex(try KeyDerivation.expand(prk, info: ""))
            == "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d"
        #expect(blockMatches, "the first block is not RFC 5869 A.3's")
        let prefixMatches = Self.hex(try KeyDerivation.expand(prk, info: "", length: 16)) == "8da4e775a563c18f715f802a063c5a31"
        #expect(prefixMatches, "the first block's first 16 bytes are not RFC 5869 A.3's")
    }

    @Test("RFC 5869 A.1's pseudorandom key, from a salt")
    func rfcSalted() throws {
        let input = try SecureBytes(copying: [UInt8](repeating: 0x0b, count: 22))
        let prk = try KeyDerivation.extract(master: input, salt: Array(0...12))
        let prkMatches = Self.hex(prk) == "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5"
        #expect(prkMatches, "the pseudorandom key is not RFC 5869 A.1's")
    }

    @Test("Several purposes under one HMAC set-up give each purpose's own key, in order")
    func severalPurposes() throws {
        let prk = try KeyDerivation.extract(master: try SecureBytes(copying: Array(0..<32)), salt: Array(100..<132))
        let infos = ["swift-keyring/1 key check", "swift-keyring/1 record entry", "", "swift-keyring/1 file mac"]
        let together = try KeyDerivation.expand(prk, infos: infos).map(Self.hex)
        let apart = try infos.map { Self.hex(try KeyDerivation.expand(prk, info: $0)) }
        for (index, info) in infos.enumerated() {
            let same = together[index] == apart[index]
            #expect(same, "the key for \"\(info)\" differs from its own set-up's")
        }
        let distinct = Set(together).count == infos.count
        #expect(distinct, "two purposes got the same key")
    }
}
