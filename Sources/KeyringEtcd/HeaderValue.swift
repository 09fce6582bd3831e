/// What may go into a request header: a line libcurl sends as it is, so a CR or LF in a value
/// would end the header there and start another one of the sender's choosing.
enum HeaderValue {
    /// The longest value sent: etcd's simple tokens are about 30 bytes and its JWTs a few hundred.
    static let maximumBytes = 4096

    /// Why `value` cannot be sent in a header, or `nil` when it can: it must be 1 to
    /// `maximumBytes` bytes of visible ASCII (`!` to `~`), so no control character, space,
    /// or byte a terminal or a proxy might read otherwise. The value itself is never quoted.
    static func problem(_ value: String) -> String? {
        let bytes = value.utf8
        if bytes.isEmpty { return "it is empty" }
        if bytes.count > maximumBytes { return "it is \(bytes.count) bytes long, more than \(maximumBytes)" }
        if bytes.contains(where: { $0 == 0x0D || $0 == 0x0A }) { return "it holds a line break (CR or LF)" }
        if !bytes.allSatisfy({ (0x21...0x7E).contains($0) }) {
            return "it holds a control character, a space or a byte that is not ASCII"
        }
        return nil
    }
}
