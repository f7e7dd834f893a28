// The service registry's codes.
extension SwitchyardError.Code {
    /// No service is registered under the call's service identifier (``ServiceRegistry``).
    public static let unknownService = Self("unknownService")
    /// The service has no base URL for the current environment (``Service``).
    public static let missingBaseURL = Self("missingBaseURL")
    /// The environment is locked (a release build) and cannot be switched
    /// (``ServiceRegistry/switchEnvironment(to:customBaseURLs:)``).
    public static let environmentLocked = Self("environmentLocked")
}
