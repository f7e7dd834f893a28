extension StageID {
    /// ``AccessoryStage``.
    public static let accessories: StageID = "Accessories"
    /// The HAR recording stage (`HARRecordingStage`, in the `SwitchyardHAR` product): its id lives
    /// here so that a call can skip or enable it without importing that product.
    public static let harRecording: StageID = "HARRecording"
    /// ``AuthorizationStage``.
    public static let authorization: StageID = "Authorization"
    /// ``CacheStage``.
    public static let cache: StageID = "Cache"
    /// ``CookieStage``.
    public static let cookies: StageID = "Cookies"
    /// ``CommonParametersStage``.
    public static let commonParameters: StageID = "CommonParameters"
    /// ``EnvelopeStage``.
    public static let envelope: StageID = "Envelope"
    /// ``HeadersStage``.
    public static let headers: StageID = "Headers"
    /// ``LoggingStage``.
    public static let logging: StageID = "Logging"
    /// ``NullStrippingStage``.
    public static let nullStripping: StageID = "NullStripping"
    /// ``RetryStage``.
    public static let retry: StageID = "Retry"
    /// ``ValidationStage``.
    public static let validation: StageID = "Validation"
}
