/// Turns any name into one made of `A-Z a-z 0-9 . _ -` and `%XX` escapes of its
/// UTF-8 bytes, so a name can be a folder or part of a key without a `/`, and
/// two different names never encode alike.
enum NameEncoding {
    static func escaped(_ name: String) -> String {
        if name == "." || name == ".." {
            return String(repeating: "%2E", count: name.count)
        }
        var result = ""
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += byte < 16 ? "%0\(hex)" : "%\(hex)"
            }
        }
        return result
    }
}
