extension HTTPTransport {
    /// 16 MiB: the default limit on an answer's body (``CurlTransport/answerLimit``), far above
    /// what an API answers and far below what would strain the app's memory.
    public static var defaultAnswerLimit: Int { 16 << 20 }

    /// 64 KiB: a limit for a login's answer, which carries a token and little else.
    public static var loginAnswerLimit: Int { 64 << 10 }
}
