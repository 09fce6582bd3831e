import Foundation
import KeyringTestSupport
import Testing

@testable import SwiftKeyring

/// The GVariant codec against GLib's own serialisation: what secret-tool wrote decodes and
/// encodes back to the same bytes, at every framing-offset width.
@Suite("libsecret file: GVariant codec")
struct LibsecretFileCodecTests {
    @Test(
        "A file secret-tool wrote, with offsets of one, two and four bytes, encodes back byte for byte",
        arguments: [1, 300, 70_000])
    func roundTripsGLibBytes(secretLength: Int) throws {
        let url = try LibsecretFileFixture.newFileURL()
        let password = LibsecretFileFixture.randomPassword()
        for (index, length) in [3, secretLength].enumerated() {
            let result = try LibsecretFileFixture.secretTool(
                ["store", "--label=item \(index)", "app", "codec", "n", "\(index)"], url: url, password: password,
                stdin: String(repeating: "s", count: length))
            #expect(result.status == 0, "\(result.stderr)")
        }
        let bytes = [UInt8](try Data(contentsOf: url))
        let file = try LibsecretKeyringFile.decode(bytes)
        #expect(file.items.count == 2)
        #expect(file.salt.count == 32 && file.iterations == 100_000)
        #expect(file.encoded() == bytes, "our encoding of secret-tool's \(bytes.count)-byte file differs")
    }

    @Test(
        "Containers on each side of the offset-width boundaries decode to what was encoded",
        arguments: [250, 251, 252, 253, 254, 255, 256, 65_530, 65_533, 65_534, 65_535, 65_536])
    func offsetWidths(length: Int) throws {
        let item = GVariantEncoder.tuple([
            (LibsecretKeyringFile.hashedAttributesType, GVariantEncoder.array(of: .dictEntry(.string, .array(.byte)), [])),
            (.array(.byte), [UInt8](repeating: 7, count: length)),
        ])
        let strings = (0..<3).map { GVariantEncoder.string(String(repeating: "x", count: length / 3 + $0)) }
        let array = GVariantEncoder.array(of: .string, strings)
        for (bytes, check) in [
            (
                item,
                { (decoder: GVariantDecoder) in
                    let members = try decoder.members(of: LibsecretKeyringFile.itemType, in: 0..<item.count)
                    #expect(members[1].count == length)
                }
            ),
            (
                array,
                { (decoder: GVariantDecoder) in
                    var decoded: [String] = []
                    try decoder.forEachElement(of: .string, in: 0..<array.count) { decoded.append(try decoder.string($0)) }
                    #expect(decoded.map(\.count) == [length / 3, length / 3 + 1, length / 3 + 2])
                }
            ),
        ] {
            try bytes.withUnsafeBytes { try check(GVariantDecoder($0)) }
        }
    }
}
