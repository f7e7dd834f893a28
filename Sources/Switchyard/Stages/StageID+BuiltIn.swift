extension StageID {
    /// ``AccessoryStage``.
    public static let accessories = builtIn("Accessories")
    /// ``AuthorizationStage``.
    public static let authorization = builtIn("Authorization")
    /// ``CacheStage``.
    public static let cache = builtIn("Cache")
    /// ``CookieStage``.
    public static let cookies = builtIn("Cookies")
    /// ``CommonParametersStage``.
    public static let commonParameters = builtIn("CommonParameters")
    /// ``EnvelopeStage``.
    public static let envelope = builtIn("Envelope")
    /// ``HeadersStage``.
    public static let headers = builtIn("Headers")
    /// ``LoggingStage``.
    public static let logging = builtIn("Logging")
    /// ``NullStrippingStage``.
    public static let nullStripping = builtIn("NullStripping")
    /// ``RetryStage``.
    public static let retry = builtIn("Retry")
    /// ``ValidationStage``.
    public static let validation = builtIn("Validation")
}
