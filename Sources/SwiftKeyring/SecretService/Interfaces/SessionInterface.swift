/// `org.freedesktop.Secret.Session`, a session the client opened (`SecretTransfer`): its one method.
struct SessionInterface {
    let object: BusObject

    /// `Close()`.
    func close(asked: String, deadline: Deadline) throws {
        try object.send(
            SecretServiceNames.session, "Close", reply: "", deadline: deadline, decode: BasicReplies.none
        ).value(asked: asked, deadline: deadline)
    }
}
