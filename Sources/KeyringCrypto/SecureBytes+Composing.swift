extension SecureBytes {
    /// The UTF-8 of `text` in Unicode NFC, so a passphrase typed where accents are
    /// composed and where they are not opens the same file.
    ///
    /// The standard library's normaliser: Foundation's
    /// (`precomposedStringWithCanonicalMapping`) is in FoundationInternationalization,
    /// which would bring ICU into every process that uses the library.
    package convenience init(composing text: String) throws {
        var composed = Array(text._nfcCodeUnits)
        defer { composed.wipe() }
        try self.init(copying: composed)
    }
}
